import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';

/** Quotes that may wrap a whole name, by opening quote. */
const WRAPPING_QUOTES: Record<string, string> = {
  '"': '"',
  '“': '”',
  "'": "'",
  '‘': '’',
};

/** A name without the quotes around all of it: `"Release 1.1.0"` → `Release 1.1.0`. */
export function unquoted(name: string): string {
  let text = name.trim();
  for (;;) {
    const close = WRAPPING_QUOTES[text[0]];
    if (!close || text.length < 2 || !text.endsWith(close)) return text;
    const inner = text.slice(1, -1);
    // `"a" and "b"` is not one quoted name: its first quote closes before the end.
    if (inner.includes(close) || (close !== text[0] && inner.includes(text[0])))
      return text;
    text = inner.trim();
  }
}

/**
 * A name in double quotes, as the plugin quotes free text: `“Release 1.1.0”`. A name that came
 * quoted already is not quoted twice, and quotes inside it turn single, as English nests them:
 * `“Rollback to ‘Release 1.1.0’”`, not `“Rollback to “Release 1.1.0””`.
 */
export function quoted(name: string): string {
  const inner = unquoted(name)
    .replace(/“([^“”]*)”/g, '‘$1’')
    .replace(/"([^"]*)"/g, '‘$1’');
  return `“${inner}”`;
}

/**
 * The deployment whose release `deployment` deployed: itself, or for a rollback the deployment it
 * went back to, followed through rollbacks of rollbacks as far as `deployments` reach.
 */
export function releaseOf(
  deployment: Deployment,
  deployments: Deployment[],
): Deployment {
  const byId = new Map(deployments.map(d => [d.id, d]));
  const seen = new Set<string>();
  let release = deployment;
  while (release.rollbackToDeploymentId && !seen.has(release.id)) {
    seen.add(release.id);
    const target = byId.get(release.rollbackToDeploymentId);
    if (!target) break;
    release = target;
  }
  return release;
}

/**
 * What a deployment is called where people read it. A rollback is named after the release it
 * went back to ("Rollback to “Release 1.0.0”"), a rollback of a rollback too — not "Rollback to
 * “Rollback to …”" — when that release is among `deployments`; otherwise, and for every other
 * deployment, its description, without quotes around all of it.
 */
export function deploymentTitle(
  deployment: Deployment,
  deployments: Deployment[],
): string {
  const release = releaseOf(deployment, deployments);
  // A rollback whose release is out of reach: its description says where it went back to.
  return release.id === deployment.id || release.rollbackToDeploymentId
    ? unquoted(release.description)
    : `Rollback to ${quoted(release.description)}`;
}

/** The name of the release a deployment deployed: "Release 1.0.0" for a rollback to it too. */
export function releaseName(
  deployment: Deployment,
  deployments: Deployment[],
): string {
  return unquoted(releaseOf(deployment, deployments).description);
}
