import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';

/** Where a module's directory is on its forge: the default branch's tree at `path`. */
export function moduleDirectoryUrl(source: CodeSource, path: string): string {
  const directory = path
    .split('/')
    .filter(Boolean)
    .map(encodeURIComponent)
    .join('/');
  const tree = `${source.repoUrl}/tree/${encodeURIComponent(
    source.defaultBranch,
  )}`;
  return directory ? `${tree}/${directory}` : tree;
}

/** A commit's page on the forge. */
export function commitUrl(source: CodeSource, sha: string): string {
  return `${source.repoUrl}/commit/${encodeURIComponent(sha)}`;
}

/** "acme/modules" for the root, "acme/modules/network/vpc" for a directory in it. */
export function moduleLocation(source: CodeSource | undefined, path: string) {
  const repository = source?.repoName ?? 'A repository no longer connected';
  return path ? `${repository}/${path.replace(/^\/+|\/+$/g, '')}` : repository;
}
