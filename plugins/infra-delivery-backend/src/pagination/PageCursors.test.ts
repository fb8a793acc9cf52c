import { createHmac, randomBytes } from 'node:crypto';
import { InfraDeliveryError } from '../errors';
import { PageCursors, pageScope, CURSOR_MEMORY_SIZE } from './PageCursors';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual('node:crypto');
  return { ...actual, createHmac: jest.fn(actual.createHmac) };
});

const ORG_A = '0190f2c4-0000-7000-8000-00000000000a';
const ORG_B = '0190f2c4-0000-7000-8000-00000000000b';
const AFTER_ID = '0190f2c4-1234-7abc-8def-0123456789ab';

const BASE64URL =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** What decoding a cursor throws, or `'accepted'` when it does not. */
function refusal(decode: () => unknown) {
  try {
    decode();
  } catch (error) {
    return {
      isInfraDeliveryError: error instanceof InfraDeliveryError,
      status: (error as InfraDeliveryError).status,
      body: (error as InfraDeliveryError).toBody?.(),
    };
  }
  return 'accepted';
}

/** The one answer to every bad cursor; it says nothing about which part was wrong. */
const INVALID_CURSOR = {
  isInfraDeliveryError: true,
  status: 400,
  body: {
    code: 'InfraDelivery:Request:INVALID_CURSOR',
    message:
      'The cursor is not valid for this query; start again without a cursor',
  },
};

/** The same string with the character at `index` replaced by another base64url one. */
function changeCharacter(value: string, index: number): string {
  const current = value[index];
  const replacement = BASE64URL[(BASE64URL.indexOf(current) + 1) % 64];
  return `${value.slice(0, index)}${replacement}${value.slice(index + 1)}`;
}

describe('PageCursors', () => {
  const cursors = new PageCursors(randomBytes(32));
  const scope = pageScope('projects', ORG_A);

  describe('encode and decode', () => {
    it('round-trips the id to continue after', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      expect(cursors.decode(cursor, scope)).toBe(AFTER_ID);
    });

    it('round-trips ids of any shape, including dots and non-ASCII text', () => {
      for (const id of ['1', 'a.b.c', 'ünïcødé-id', '"quoted"', ' ', '42']) {
        expect(cursors.decode(cursors.encode(id, scope), scope)).toBe(id);
      }
    });

    it('makes URL-safe cursors of a payload and a signature', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(encodeURIComponent(cursor)).toBe(cursor);
    });

    it('verifies cursors made by another instance with the same key', () => {
      const key = randomBytes(32);
      const cursor = new PageCursors(key).encode(AFTER_ID, scope);
      expect(new PageCursors(Buffer.from(key)).decode(cursor, scope)).toBe(
        AFTER_ID,
      );
    });
  });

  describe('remembered cursors', () => {
    it('makes and checks a cursor it made before without another HMAC', () => {
      const own = new PageCursors(randomBytes(32));
      const hmac = jest.mocked(createHmac);
      hmac.mockClear();
      const first = own.encode(AFTER_ID, scope);
      expect(hmac).toHaveBeenCalledTimes(1);
      expect(own.encode(AFTER_ID, scope)).toBe(first);
      expect(own.decode(first, scope)).toBe(AFTER_ID);
      expect(hmac).toHaveBeenCalledTimes(1);
      own.encode(AFTER_ID, pageScope('projects', ORG_B));
      expect(hmac).toHaveBeenCalledTimes(2);
    });

    it("checks another instance's cursor once, and refuses a bad one every time", () => {
      const key = randomBytes(32);
      const cursor = new PageCursors(key).encode(AFTER_ID, scope);
      const own = new PageCursors(key);
      const hmac = jest.mocked(createHmac);
      hmac.mockClear();
      expect(own.decode(cursor, scope)).toBe(AFTER_ID);
      expect(own.decode(cursor, scope)).toBe(AFTER_ID);
      expect(hmac).toHaveBeenCalledTimes(1);
      const forged = changeCharacter(cursor, cursor.length - 1);
      expect(refusal(() => own.decode(forged, scope))).toEqual(INVALID_CURSOR);
      expect(refusal(() => own.decode(forged, scope))).toEqual(INVALID_CURSOR);
      expect(hmac).toHaveBeenCalledTimes(3);
    });

    it('gives the cursor a new HMAC gives, before and after it is forgotten', () => {
      const key = randomBytes(32);
      const remembering = new PageCursors(key);
      const first = remembering.encode(AFTER_ID, scope);
      for (let i = 0; i < CURSOR_MEMORY_SIZE; i++) {
        remembering.encode(`after-${i}`, scope);
      }
      expect(remembering.encode(AFTER_ID, scope)).toBe(first);
      expect(new PageCursors(key).encode(AFTER_ID, scope)).toBe(first);
    });

    it('still refuses every changed character of a cursor it remembers', () => {
      const own = new PageCursors(randomBytes(32));
      const cursor = own.encode(AFTER_ID, scope);
      expect(own.decode(cursor, scope)).toBe(AFTER_ID);
      for (let index = 0; index < cursor.length; index++) {
        if (cursor[index] === '.') continue;
        expect(
          refusal(() => own.decode(changeCharacter(cursor, index), scope)),
        ).toEqual(INVALID_CURSOR);
      }
      expect(
        refusal(() => own.decode(cursor, pageScope('projects', ORG_B))),
      ).toEqual(INVALID_CURSOR);
    });
  });

  describe('refuses with 400 InfraDelivery:Request:INVALID_CURSOR', () => {
    it('a cursor with any one character changed', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      for (let index = 0; index < cursor.length; index++) {
        const changed = changeCharacter(cursor, index);
        expect(changed).not.toBe(cursor);
        expect(refusal(() => cursors.decode(changed, scope))).toEqual(
          INVALID_CURSOR,
        );
      }
    });

    it('a cursor whose payload was replaced by another id', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      const [, signature] = cursor.split('.');
      const forgedPayload = Buffer.from(
        JSON.stringify({ a: '0190f2c4-ffff-7fff-bfff-ffffffffffff' }),
      ).toString('base64url');
      expect(
        refusal(() => cursors.decode(`${forgedPayload}.${signature}`, scope)),
      ).toEqual(INVALID_CURSOR);
    });

    it('a cursor with extra dots', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      const [payload, signature] = cursor.split('.');
      for (const variant of [
        `${cursor}.`,
        `${cursor}.${signature}`,
        `.${cursor}`,
        `${payload}..${signature}`,
        `${payload}.${signature}.extra`,
      ]) {
        expect(refusal(() => cursors.decode(variant, scope))).toEqual(
          INVALID_CURSOR,
        );
      }
    });

    it('a cursor missing its payload or signature', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      const [payload, signature] = cursor.split('.');
      for (const variant of [
        payload,
        `${payload}.`,
        `.${signature}`,
        '.',
        '',
      ]) {
        expect(refusal(() => cursors.decode(variant, scope))).toEqual(
          INVALID_CURSOR,
        );
      }
    });

    it('non-base64 junk', () => {
      for (const junk of [
        'garbage',
        '!!!.???',
        '%%%%.%%%%',
        'not base64 at all.also not',
        '{"a":"x"}.sig',
        '\u0000\u0001.\u0002',
        '💥.💥',
      ]) {
        expect(refusal(() => cursors.decode(junk, scope))).toEqual(
          INVALID_CURSOR,
        );
      }
    });

    it('a cursor from another scope', () => {
      const cursor = cursors.encode(AFTER_ID, scope);
      for (const other of [
        pageScope('projects', ORG_B),
        pageScope('environments', ORG_A),
        pageScope('environments', ORG_A, 'project-1'),
        pageScope('api-keys', ORG_A, 'MEMBERSHIP', 'membership-1'),
        pageScope('api-keys', ORG_A, undefined, undefined),
      ]) {
        expect(other).not.toBe(scope);
        expect(refusal(() => cursors.decode(cursor, other))).toEqual(
          INVALID_CURSOR,
        );
      }
    });

    it('a cursor from a query with other filters', () => {
      const filtered = pageScope('api-keys', ORG_A, 'MEMBERSHIP', 'm-1');
      const cursor = cursors.encode(AFTER_ID, filtered);
      expect(cursors.decode(cursor, filtered)).toBe(AFTER_ID);
      expect(
        refusal(() =>
          cursors.decode(
            cursor,
            pageScope('api-keys', ORG_A, 'MEMBERSHIP', 'm-2'),
          ),
        ),
      ).toEqual(INVALID_CURSOR);
      expect(
        refusal(() =>
          cursors.decode(
            cursor,
            pageScope('api-keys', ORG_A, 'SERVICE_ACCOUNT', 'm-1'),
          ),
        ),
      ).toEqual(INVALID_CURSOR);
    });

    it('a cursor signed with another key', () => {
      const foreign = new PageCursors(randomBytes(32)).encode(AFTER_ID, scope);
      expect(refusal(() => cursors.decode(foreign, scope))).toEqual(
        INVALID_CURSOR,
      );
    });
  });

  describe('request and response', () => {
    it('asks the store for the first page when there is no cursor', () => {
      expect(cursors.request({ limit: 10 }, scope)).toEqual({
        limit: 10,
        afterId: undefined,
      });
    });

    it('gives the next page a cursor that continues after the last id', async () => {
      const fetchPage = jest.fn(async () => ({
        items: ['x', 'y'],
        totalCount: 5,
        nextAfterId: AFTER_ID,
      }));
      const first = await cursors.list({ limit: 2 }, scope, fetchPage);
      expect(fetchPage).toHaveBeenLastCalledWith({
        limit: 2,
        afterId: undefined,
      });
      expect(first).toEqual({
        data: ['x', 'y'],
        meta: { limit: 2, nextCursor: expect.any(String), totalCount: 5 },
      });

      await cursors.list(
        { limit: 2, cursor: first.meta.nextCursor! },
        scope,
        fetchPage,
      );
      expect(fetchPage).toHaveBeenLastCalledWith({
        limit: 2,
        afterId: AFTER_ID,
      });
    });

    it('leaves the cursor out on the last page', () => {
      expect(
        cursors.response({ items: [1], totalCount: 1 }, { limit: 10 }, scope),
      ).toStrictEqual({
        data: [1],
        meta: { limit: 10, totalCount: 1 },
      });
    });

    it('does not fetch a page for a refused cursor', async () => {
      const fetchPage = jest.fn();
      const foreign = new PageCursors(randomBytes(32)).encode(AFTER_ID, scope);
      await expect(
        cursors.list({ limit: 2, cursor: foreign }, scope, fetchPage),
      ).rejects.toMatchObject({
        status: 400,
        code: 'InfraDelivery:Request:INVALID_CURSOR',
      });
      expect(fetchPage).not.toHaveBeenCalled();
    });
  });
});
