import { SCOPE_DESCRIPTIONS, type Scope, type SignupMode, type Workspace } from '@hop/shared';
import { page } from '../../redirector/pages.js';
import { dashboardLook } from '../dashboard-look.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const alert = (message?: string) => (message ? `<p role="alert" class="alert">${esc(message)}</p>\n` : '');

/** The OAuth pages wear the dashboard's look: its stylesheet, its icon, its header. */
const oauthPage = (title: string, body: string) => page(title, body, { look: dashboardLook() });

/** An authorize request that cannot be answered with a redirect (unknown client, unregistered URI). */
export function oauthErrorPage(message: string): string {
  return oauthPage('Cannot continue', `<p>${esc(message)}</p>\n<p>Nothing was shared. You can close this page.</p>`);
}

/** Step one when there is no dashboard session: e-mail and password, posted back to the same URL. */
export function loginPage(opts: {
  clientName: string; csrf: string; email?: string; error?: string; signupHref: string; signup: SignupMode;
  /** The dashboard's forgot-password page. */
  forgotHref: string;
}): string {
  return oauthPage(
    'Sign in to Hop',
    `<p>Sign in to continue to <strong>${esc(opts.clientName)}</strong>.</p>
${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <input type="hidden" name="action" value="login">
  <div class="field"><label for="email">E-mail</label>
  <input id="email" name="email" type="email" required autocomplete="username" value="${esc(opts.email ?? '')}" autofocus></div>
  <div class="field"><label for="password">Password</label>
  <input id="password" name="password" type="password" required autocomplete="current-password"></div>
  <button type="submit">Sign in</button>
</form>
<p><a href="${esc(opts.forgotHref)}">Forgot password?</a></p>
${opts.signup === 'closed'
    ? '<p>New to Hop? This server does not take sign-ups: ask its operator for an account.</p>'
    : `<p>New to Hop? <a href="${esc(opts.signupHref)}">Create an account</a>${opts.signup === 'invite' ? ' with your invite' : ''}; you will come back here.</p>`}`,
  );
}

/** HOP_SIGNUP=closed: the sign-up view says so, and where to go instead. */
function signupClosedPage(loginHref: string): string {
  return oauthPage('Sign-up is closed', `<p>This Hop server does not take sign-ups: ask its operator to create your account.</p>
<p>Have an account? <a href="${esc(loginHref)}">Sign in</a>.</p>`);
}

/**
 * Sign-up inside the flow (`prompt=create`): the new account is signed in and the flow goes on.
 * By invite only (HOP_SIGNUP=invite), the form asks for the invite too.
 */
export function signupPage(opts: {
  clientName: string; csrf: string; email?: string; name?: string; invite?: string; error?: string; loginHref: string; signup: SignupMode;
}): string {
  if (opts.signup === 'closed') return signupClosedPage(opts.loginHref);
  const invite = opts.signup === 'invite'
    ? `  <div class="field"><label for="invite">Invite link or token</label>
  <input id="invite" name="invite" required autocomplete="off" spellcheck="false" aria-describedby="invite-hint" value="${esc(opts.invite ?? '')}">
  <small id="invite-hint" class="hint">This server takes sign-ups by invite only: paste the link of the invite you were sent.</small></div>
`
    : '';
  return oauthPage(
    'Create your Hop account',
    `<p>Create an account to continue to <strong>${esc(opts.clientName)}</strong>.</p>
${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <input type="hidden" name="action" value="signup">
  <div class="field"><label for="name">Name</label>
  <input id="name" name="name" required autocomplete="name" value="${esc(opts.name ?? '')}" autofocus></div>
  <div class="field"><label for="email">E-mail</label>
  <input id="email" name="email" type="email" required autocomplete="username" value="${esc(opts.email ?? '')}"></div>
  <div class="field"><label for="password">Password (at least 8 characters)</label>
  <input id="password" name="password" type="password" required minlength="8" autocomplete="new-password"></div>
${invite}  <button type="submit">Create account</button>
</form>
<p>Have an account? <a href="${esc(opts.loginHref)}">Sign in</a>.</p>`,
  );
}

/** Who asks, in words a person can check: a third party by the workspace that registered it. */
function clientIntro(client: ConsentClient, userEmail: string): string {
  const who = `<strong>${esc(client.name)}</strong>`;
  const as = `as <strong>${esc(userEmail)}</strong>`;
  // The CLI's own login acts in every workspace of the user; the one chosen is only its default.
  if (client.firstParty) return `<p>${who}, built into Hop, wants to act on your behalf, ${as}, in each of your workspaces, with your role in each.</p>`;
  const owner = client.registeredBy
    ? `registered by the workspace <strong>${esc(client.registeredBy.name)}</strong> (${esc(client.registeredBy.slug)}), not by Hop`
    : 'not made by Hop';
  return `<p>The application ${who}, ${owner}, wants to act on your behalf, ${as}, in one workspace.</p>`;
}

/** What the consent page says of a client (the domain's RegisteredClient has these). */
export interface ConsentClient {
  name: string;
  firstParty: boolean;
  registeredBy: { name: string; slug: string } | null;
}

/**
 * Step two: which client (and, for a third party, which workspace registered it), as whom, in
 * which workspace, each scope in plain words, and where the answer goes: the redirect's host, or
 * for the device flow the code being approved, with a warning against codes someone else sent.
 */
export function consentPage(opts: {
  client: ConsentClient;
  userEmail: string;
  workspaces: Workspace[];
  scopes: Scope[];
  csrf: string;
  error?: string;
  /** The authorization code flow: the host the browser is sent back to. */
  redirectHost?: string;
  /** The device flow: the code being approved (posted back with the form). */
  userCode?: string;
}): string {
  const { client } = opts;
  const options = opts.workspaces
    .map((w, i) => `<option value="${esc(w.id)}"${i === 0 ? ' selected' : ''}>${esc(w.name)} (${esc(w.slug)}, ${esc(w.role)})</option>`)
    .join('');
  const scopes = opts.scopes.map((s) => `  <li>${esc(SCOPE_DESCRIPTIONS[s])} <small>(<code>${esc(s)}</code>)</small></li>`).join('\n');
  const choice = client.firstParty
    ? (opts.workspaces.length
      ? `<div class="field"><label for="workspace">Default workspace</label>\n  <select id="workspace" name="workspace">${options}</select></div>`
      : '<p>You belong to no workspace yet: create one afterwards with <code>hop workspaces create</code>.</p>')
    : `<div class="field"><label for="workspace">Workspace</label>\n  <select id="workspace" name="workspace" required>${options}</select></div>`;
  const where = opts.userCode
    ? `<p>You are approving the device that shows the code <strong><code>${esc(opts.userCode)}</code></strong>.</p>
<p role="note"><strong>Approve only a code that your own device shows you now.</strong> If someone sent you this code or link, deny: they would get access to your account.</p>\n`
    : opts.redirectHost ? `<p>Your answer is sent to <strong>${esc(opts.redirectHost)}</strong>.</p>\n` : '';
  const hidden = opts.userCode ? `  <input type="hidden" name="user_code" value="${esc(opts.userCode)}">\n` : '';
  return oauthPage(
    `Allow ${client.name}?`,
    `${clientIntro(client, opts.userEmail)}
${where}${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
${hidden}  ${choice}
  <p>It will be able to:</p>
  <ul>
${scopes}
  </ul>
  <p class="hint">It never gets more power than your role in the workspace. You can revoke its access at any time.</p>
  <div class="inline">
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
  </div>
</form>
<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <input type="hidden" name="action" value="logout">
  <p class="hint">Not ${esc(opts.userEmail)}? <button type="submit" class="link-button">Sign out</button></p>
</form>`,
  );
}

/** A signed-in user with no workspace has nothing to grant. */
export function noWorkspacePage(email: string): string {
  return oauthPage('No workspace', `<p>${esc(email)} belongs to no workspace yet. Create one first (<code>hop workspaces create</code>), then try again.</p>`);
}

/** The device flow's page (RFC 8628 3.3): the code shown by the device, typed (or prefilled) here. */
export function deviceCodePage(opts: { csrf: string; userCode?: string; error?: string }): string {
  return oauthPage(
    'Connect a device',
    `<p>Enter the code shown by the device (for example by <code>hop login</code> in your terminal).</p>
${alert(opts.error)}<form method="post" action="">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <input type="hidden" name="action" value="code">
  <div class="field"><label for="user_code">Code</label>
  <input id="user_code" name="user_code" required autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" value="${esc(opts.userCode ?? '')}" autofocus></div>
  <button type="submit">Continue</button>
</form>`,
  );
}

/** The end of the device flow on this side: the device gets its answer when it next polls. */
export function deviceDonePage(approved: boolean): string {
  return approved
    ? oauthPage('Device connected', '<p>You are logged in on the device. You can close this page and return to it.</p>')
    : oauthPage('Request denied', '<p>Nothing was shared with the device. You can close this page.</p>');
}
