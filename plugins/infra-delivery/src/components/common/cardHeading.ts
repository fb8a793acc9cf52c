/**
 * An InfoCard's title as a heading: Backstage renders it as plain text, so a screen reader
 * moving by headings found only the page's title ("Infrastructure") and none of its sections.
 */
export const CARD_HEADING = { component: 'h2' } as const;
