/**
 * The id of a GitHub App installation from what a person pastes: the id itself, or the
 * address of the installation's settings page, which ends with it
 * (`https://github.com/organizations/acme/settings/installations/12345678`).
 */
export function installationIdFrom(text: string): string {
  const trimmed = text.trim();
  const fromAddress = /\/installations\/(\d+)\/?$/.exec(trimmed);
  return fromAddress ? fromAddress[1] : trimmed;
}
