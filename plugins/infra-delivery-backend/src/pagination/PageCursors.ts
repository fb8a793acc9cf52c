import {
  createHmac,
  createSecretKey,
  KeyObject,
  timingSafeEqual,
} from 'node:crypto';
import {
  ListResponse,
  PageQuery,
} from '@infra-delivery/plugin-infra-delivery-common';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { InfraDeliveryError } from '../errors';
import { BoundedMap } from '../lib/BoundedMap';

/**
 * Cursors remembered per instance, made and accepted each (about 250 bytes an entry); the least
 * recently used go first.
 */
export const CURSOR_MEMORY_SIZE = 2_048;

/**
 * Cursors are `base64url(JSON{ a: afterId })` + `.` + an HMAC over the payload and the
 * query's scope (operation, organization and filters). A changed byte, or a cursor from another
 * organization or another query, fails the signature and is a 400: a cursor never reveals or
 * reaches rows outside the query that made it.
 */
export class PageCursors {
  /** Made once: a raw key would become a new KeyObject on every signature. */
  private readonly key: KeyObject;

  /**
   * The cursors this instance made and accepted, by scope: a cursor is a pure function of its
   * id, its scope and the key, so a remembered one is what encoding or checking it again gives.
   * Encoding and checking cost 55–80 µs in a busy backend, not the 5–10 µs of a loop (the
   * HMAC's set-up in OpenSSL and the base64 conversions run from caches the rest of the request
   * has evicted; docs/benchmarks.md, optimization 34); a remembered cursor costs one map
   * lookup. The same cursor is made again whenever a list is read again unchanged (the portal
   * refreshing a tab, a client polling the first page), and checked whenever its page is.
   */
  private readonly made = new BoundedMap<string, string>(CURSOR_MEMORY_SIZE);
  private readonly accepted = new BoundedMap<string, string>(
    CURSOR_MEMORY_SIZE,
  );

  constructor(key: Buffer) {
    this.key = createSecretKey(key);
  }

  private sign(payload: string, scope: string): string {
    return createHmac('sha256', this.key)
      .update(payload)
      .update('\u0000')
      .update(scope)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  encode(afterId: string, scope: string): string {
    const madeKey = `${scope}\u0000${afterId}`;
    let cursor = this.made.get(madeKey);
    if (cursor === undefined) {
      const payload = Buffer.from(JSON.stringify({ a: afterId })).toString(
        'base64url',
      );
      cursor = `${payload}.${this.sign(payload, scope)}`;
      this.accepted.set(`${scope}\u0000${cursor}`, afterId);
    }
    this.made.set(madeKey, cursor);
    return cursor;
  }

  decode(cursor: string, scope: string): string {
    const acceptedKey = `${scope}\u0000${cursor}`;
    const remembered = this.accepted.get(acceptedKey);
    const afterId = remembered ?? this.verify(cursor, scope);
    this.accepted.set(acceptedKey, afterId);
    return afterId;
  }

  /** The id a cursor this instance has not seen continues after, once its signature holds. */
  private verify(cursor: string, scope: string): string {
    const [payload, signature, rest] = cursor.split('.');
    const invalid = new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'INVALID_CURSOR',
      message:
        'The cursor is not valid for this query; start again without a cursor',
    });
    if (!payload || !signature || rest !== undefined) {
      throw invalid;
    }
    const expected = Buffer.from(this.sign(payload, scope));
    const actual = Buffer.from(signature);
    if (
      expected.length !== actual.length ||
      !timingSafeEqual(expected, actual)
    ) {
      throw invalid;
    }
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    if (typeof decoded?.a !== 'string') {
      throw invalid;
    }
    return decoded.a;
  }

  /** Fetches the page a query asks for and shapes the list response. */
  async list<T>(
    query: PageQuery,
    scope: string,
    fetchPage: (request: KeysetRequest) => Promise<KeysetPage<T>>,
  ): Promise<ListResponse<T>> {
    const page = await fetchPage(this.request(query, scope));
    return this.response(page, query, scope);
  }

  /** The store request for a page query. */
  request(query: PageQuery, scope: string): KeysetRequest {
    return {
      limit: query.limit,
      afterId: query.cursor ? this.decode(query.cursor, scope) : undefined,
    };
  }

  /** The `{ data, meta }` response of a page. */
  response<T>(
    page: KeysetPage<T>,
    query: PageQuery,
    scope: string,
  ): ListResponse<T> {
    return {
      data: page.items,
      meta: {
        limit: query.limit,
        ...(page.nextAfterId
          ? { nextCursor: this.encode(page.nextAfterId, scope) }
          : {}),
        totalCount: page.totalCount,
      },
    };
  }
}

/** A scope string from the parts that define a query. */
export function pageScope(...parts: unknown[]): string {
  return JSON.stringify(parts);
}
