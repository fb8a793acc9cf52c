/**
 * How the stack template's selects name a project or an environment, its id beside its name:
 * two environments may share a name in different projects.
 */
export const choiceLabel = (item: { name: string; givenId: string }) =>
  `${item.name} (${item.givenId})`;

/** How the stack template's cloud account select names a connected account. */
export const cloudAccountLabel = (account: { name: string; cloudId: string }) =>
  `${account.name} · ${account.cloudId}`;
