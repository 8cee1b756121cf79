import { UsageError } from './errors.js';
import { SettingsFile } from './settings-file.js';

export const DEFAULT_API_URL = 'http://localhost:3000';

/** What `hop login` and `hop workspaces use` write to disk. */
export interface StoredSettings {
  apiUrl?: string;
  /** An API key (`hop_live_...`) or a session/bearer token. */
  credential?: string;
  /** The default workspace's id. */
  workspace?: string;
  /** Its slug, to show it (`hop whoami`). */
  workspaceSlug?: string;
  /** Set by `hop login` through the browser: `credential` is then the OAuth access token. */
  oauth?: StoredOAuth;
}

/** What the CLI keeps of an OAuth login to refresh and revoke it. */
export interface StoredOAuth {
  clientId: string;
  refreshToken: string;
  /** When the access token in `credential` expires (ISO). */
  expiresAt: string;
  scopes: string[];
  /** The workspace chosen at consent: the default one (the CLI's own login acts in every workspace of the user). */
  workspaceId: string | null;
}

/** `ci`: an access token a CI job exchanged its OIDC ID token for (ci-exchange.ts). */
export type CredentialKind = 'api-key' | 'token' | 'oauth' | 'ci';

/** The settings a command runs with: the stored ones, with the environment laid over them. */
export interface Settings {
  apiUrl: string;
  credential?: string;
  credentialKind?: CredentialKind;
  /** `oidc`: exchanged at start-up from the CI job's ID token (ci-exchange.ts). */
  credentialSource?: 'env' | 'config' | 'oidc';
  /** HOP_WORKSPACE, else the stored default. */
  workspace?: string;
  /** The default stored by `hop login` or `hop workspaces use`. */
  storedWorkspace?: string;
  configPath: string;
}

export type ConfigStore = SettingsFile<StoredSettings>;

export function openConfigStore(env: NodeJS.ProcessEnv = process.env): ConfigStore {
  return new SettingsFile<StoredSettings>(env.HOP_CONFIG_DIR || undefined);
}

/** Keys and OAuth access tokens are recognised by their prefix; anything else is a session token. */
export function credentialKind(credential: string): CredentialKind {
  if (/^hop_(live|test)_/.test(credential)) return 'api-key';
  if (credential.startsWith('hopci_')) return 'ci';
  return credential.startsWith('hopat_') ? 'oauth' : 'token';
}

/**
 * The server address, refused before any request when malformed (exit 2, naming where it came
 * from): `localhost:3000` or `htp://...` would otherwise fail later with a confusing network error.
 */
export function checkApiUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new UsageError(`${source} is not a server address: "${value}" (expected http(s)://host[:port], e.g. http://localhost:3000)`);
  }
  return value.replace(/\/+$/, '');
}

/** The shapes the server issues: an API key, an OAuth or CI access token, a session token (a JWT). */
const CREDENTIAL = /^(hop_(live|test)_[\w-]+|hop(at|ci)_[\w-]+|[\w-]+\.[\w-]+\.[\w-]+)$/;

/** Why a credential cannot be sent (empty, or no credential the server issues), or undefined. */
export function credentialProblem(settings: Pick<Settings, 'credential' | 'credentialSource'>): string | undefined {
  const { credential, credentialSource } = settings;
  const where = credentialSource === 'env' ? ' in HOP_API_KEY' : ` in the settings file (log in again)`;
  if (credentialSource === 'env' && !credential) return 'invalid or empty credential: HOP_API_KEY is set but empty';
  if (credential && !CREDENTIAL.test(credential)) {
    return `invalid or empty credential${where}: expected an API key (hop_live_...), an OAuth token (hopat_...) or a session token`;
  }
  return undefined;
}

export function resolveSettings(store: ConfigStore, env: NodeJS.ProcessEnv = process.env): Settings {
  // Set but empty (a CI secret that is missing) is an error to report, not a reason to use another login.
  const fromEnv = env.HOP_API_KEY !== undefined;
  const credential = fromEnv ? env.HOP_API_KEY!.trim() : store.get('credential');
  const apiUrl = env.HOP_API_URL ? checkApiUrl(env.HOP_API_URL, 'HOP_API_URL') : store.get('apiUrl') || DEFAULT_API_URL;
  return {
    apiUrl,
    credential,
    credentialKind: credential ? credentialKind(credential) : undefined,
    credentialSource: fromEnv ? 'env' : credential ? 'config' : undefined,
    workspace: env.HOP_WORKSPACE || store.get('workspace'),
    storedWorkspace: store.get('workspace'),
    configPath: store.path,
  };
}
