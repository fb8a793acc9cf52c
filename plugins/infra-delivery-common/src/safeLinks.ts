/**
 * Whether an address from data (an error's `action.url`, which a runner reports) is one a
 * page may link to: http(s), or a path of the portal. A `javascript:` or `data:` address in
 * a link runs in the portal when pressed.
 */
export function isSafeLinkUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) || /^\/(?![/\\])/.test(url);
}
