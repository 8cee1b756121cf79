import { SCOPE_DESCRIPTIONS, type Scope, type Workspace } from '@hop/shared';
import { page } from '../../redirector/pages.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const alert = (message?: string) => (message ? `<p role="alert" style="color:#b00020">${esc(message)}</p>\n` : '');

/** An authorize request that cannot be answered with a redirect (unknown client, unregistered URI). */
export function oauthErrorPage(message: string): string {
  return page('Cannot continue', `<p>${esc(message)}</p>\n<p>Nothing was shared. You can close this page.</p>`);
}

/** Step one when there is no dashboard session: e-mail and password, posted back to the same URL. */
export function loginPage(opts: { clientName: string; csrf: string; email?: string; error?: string; signupUrl?: string }): string {
  return page(
    'Sign in to Hop',
    `<p>Sign in to continue to <strong>${esc(opts.clientName)}</strong>.</p>
${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <input type="hidden" name="action" value="login">
  <p><label for="email">E-mail</label><br>
  <input id="email" name="email" type="email" required autocomplete="username" value="${esc(opts.email ?? '')}" autofocus></p>
  <p><label for="password">Password</label><br>
  <input id="password" name="password" type="password" required autocomplete="current-password"></p>
  <button type="submit">Sign in</button>
</form>${opts.signupUrl ? `\n<p>New to Hop? <a href="${esc(opts.signupUrl)}">Create an account</a>, then come back here.</p>` : ''}`,
  );
}

/** Step two: which client, as whom, in which workspace, and each scope in plain words. */
export function consentPage(opts: {
  clientName: string;
  firstParty: boolean;
  userEmail: string;
  workspaces: Workspace[];
  scopes: Scope[];
  csrf: string;
  error?: string;
}): string {
  const options = opts.workspaces
    .map((w, i) => `<option value="${esc(w.id)}"${i === 0 ? ' selected' : ''}>${esc(w.name)} (${esc(w.slug)}, ${esc(w.role)})</option>`)
    .join('');
  const scopes = opts.scopes.map((s) => `  <li>${esc(SCOPE_DESCRIPTIONS[s])} <small>(<code>${esc(s)}</code>)</small></li>`).join('\n');
  const who = opts.firstParty ? `${esc(opts.clientName)}` : `The application <strong>${esc(opts.clientName)}</strong>`;
  return page(
    `Allow ${opts.clientName}?`,
    `<p>${who} wants to act on your behalf, as <strong>${esc(opts.userEmail)}</strong>, in one workspace.</p>
${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <p><label for="workspace">Workspace</label><br>
  <select id="workspace" name="workspace" required>${options}</select></p>
  <p>It will be able to:</p>
  <ul>
${scopes}
  </ul>
  <p><small>It never gets more power than your role in the workspace. You can revoke its access at any time.</small></p>
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** A signed-in user with no workspace has nothing to grant. */
export function noWorkspacePage(email: string): string {
  return page('No workspace', `<p>${esc(email)} belongs to no workspace yet. Create one first (<code>hop workspaces create</code>), then try again.</p>`);
}
