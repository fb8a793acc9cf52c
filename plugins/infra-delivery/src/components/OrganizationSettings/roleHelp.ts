/** What each role may do, said under a role chosen for a new member or service account. */
export const ROLE_HELP =
  'Viewer reads; Member also runs pipelines and changes resources; Admin also manages members, service accounts and keys; Owner also manages admins.';
