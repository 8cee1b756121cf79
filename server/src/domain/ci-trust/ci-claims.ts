import type { JWTPayload } from 'jose';
import { OidcRefusal } from './oidc-refusal.js';

/** What a trust can require of a job, read from its ID token whatever CI issued it. */
export interface JobClaims {
  subject: string;
  repository: string | null;
  ref: string | null;
  environment: string | null;
  /** Every name the job's workflow goes by: GitHub's `workflow` name and the path in `workflow_ref`; GitLab's CI config path. */
  workflows: string[];
  runId: string | null;
}

export interface TrustRequirements {
  repository: string;
  ref: string | null;
  environment: string | null;
  workflow: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

/** `acme/site/.github/workflows/links.yml@refs/heads/main` → `.github/workflows/links.yml`. */
function workflowPath(ref: string | null, repository: string | null): string | null {
  if (!ref) return null;
  let path = ref.split('@')[0];
  // GitLab's ci_config_ref_uri: `gitlab.com/group/project//.gitlab-ci.yml@refs/heads/main`.
  const split = path.indexOf('//');
  if (split >= 0) return path.slice(split + 2);
  if (repository && path.toLowerCase().startsWith(`${repository.toLowerCase()}/`)) path = path.slice(repository.length + 1);
  return path || null;
}

/**
 * The claims of a GitHub Actions token (`repository`, `ref`, `environment`, `workflow`,
 * `workflow_ref`, `run_id`) or a GitLab CI one (`project_path`, `ref` with `ref_type`,
 * `environment`, `ci_config_ref_uri`, `pipeline_id`), in one shape. GitLab's `ref` is a bare
 * branch or tag name: it becomes `refs/heads/...` or `refs/tags/...` as GitHub spells it.
 */
export function jobClaims(p: JWTPayload): JobClaims {
  const gitlab = typeof p.project_path === 'string';
  const repository = text(gitlab ? p.project_path : p.repository);
  let ref = text(p.ref);
  if (gitlab && ref && !ref.startsWith('refs/')) ref = `refs/${p.ref_type === 'tag' ? 'tags' : 'heads'}/${ref}`;
  const workflows = gitlab
    ? [workflowPath(text(p.ci_config_ref_uri), repository)]
    : [text(p.workflow), workflowPath(text(p.workflow_ref), repository)];
  return {
    subject: text(p.sub) ?? '',
    repository,
    ref,
    environment: text(p.environment),
    workflows: workflows.filter((w): w is string => w !== null),
    runId: text(gitlab ? p.pipeline_id : p.run_id),
  };
}

/**
 * Whether a job meets a trust, or the first requirement it fails, worded for the refusal.
 * Repository names compare without case (GitHub's and GitLab's do); the others exactly.
 */
export function unmetRequirement(trust: TrustRequirements, job: JobClaims): OidcRefusal | null {
  if (!job.repository || job.repository.toLowerCase() !== trust.repository.toLowerCase()) {
    return new OidcRefusal('repository', `no CI trust names ${job.repository ?? 'a token without a repository'}`);
  }
  if (trust.ref !== null && job.ref !== trust.ref) return new OidcRefusal('ref', `the trust requires ${trust.ref}; the token names ${job.ref ?? 'none'}`);
  if (trust.environment !== null && job.environment !== trust.environment) {
    return new OidcRefusal('environment', `the trust requires ${trust.environment}; the token names ${job.environment ?? 'none'}`);
  }
  if (trust.workflow !== null && !job.workflows.includes(trust.workflow)) {
    return new OidcRefusal('workflow', `the trust requires ${trust.workflow}; the token names ${job.workflows.join(' or ') || 'none'}`);
  }
  return null;
}

/** How much a trust pins down: of several that a job meets, the most specific one applies. */
export const specificity = (t: TrustRequirements) => [t.ref, t.environment, t.workflow].filter((v) => v !== null).length;
