import { answerJson, freezeAnswer, frozenAnswerBytes } from './frozenAnswers';

describe('frozen answers', () => {
  it('serializes a frozen answer once and keeps its bytes', () => {
    const answer = freezeAnswer({
      unit: 'Percent',
      datapoints: [{ timestamp: '2026-01-01T00:00:00.000Z', value: 1.5 }],
    });
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const first = frozenAnswerBytes(answer);
      const second = frozenAnswerBytes(answer);
      expect(first?.toString()).toBe(
        '{"unit":"Percent","datapoints":[{"timestamp":"2026-01-01T00:00:00.000Z","value":1.5}]}',
      );
      expect(second).toBe(first);
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('freezes everything inside, so the kept bytes cannot go stale', () => {
    const answer = freezeAnswer({ datapoints: [{ value: 1 }] });
    expect(() => {
      (answer.datapoints as { value: number }[]).push({ value: 2 });
    }).toThrow(TypeError);
    expect(() => {
      (answer.datapoints[0] as { value: number }).value = 3;
    }).toThrow(TypeError);
  });

  it('leaves every other answer to be serialized when sent', () => {
    expect(frozenAnswerBytes({ a: 1 })).toBeUndefined();
    expect(frozenAnswerBytes(Object.freeze({ a: 1 }))).toBeUndefined();
    expect(frozenAnswerBytes('text')).toBeUndefined();
    expect(frozenAnswerBytes(null)).toBeUndefined();
  });

  it('keeps its bytes where JSON, copies and comparisons do not see them', () => {
    const answer = freezeAnswer({ id: 'r1', tags: ['a'] });
    frozenAnswerBytes(answer);
    expect(JSON.stringify(answer)).toBe('{"id":"r1","tags":["a"]}');
    expect(Object.keys(answer)).toEqual(['id', 'tags']);
    expect(answer).toStrictEqual({ id: 'r1', tags: ['a'] });
    // A copy is an answer of its own, not a frozen one with the original's bytes.
    expect(frozenAnswerBytes({ ...answer })).toBeUndefined();
  });

  it('serializes an object that was frozen before each time, and still freezes it deeply', () => {
    const inner = { value: 1 };
    const answer = freezeAnswer(Object.freeze({ inner }));
    expect(frozenAnswerBytes(answer)).toBeUndefined();
    expect(Object.isFrozen(inner)).toBe(false); // frozen already: left as it was
    expect(answerJson({ data: [answer] }).toString()).toBe(
      '{"data":[{"inner":{"value":1}}]}',
    );
  });

  describe('answerJson', () => {
    const frozenRun = (id: string) =>
      freezeAnswer({ id, name: `Zürich — 東京 ${id}`, error: undefined });

    it('sends the same text as JSON.stringify for a list of frozen and open items', () => {
      const answer = {
        data: [
          frozenRun('r2'),
          { id: 'r1', queueState: { reason: 'Queued for a runner' } },
          undefined,
          frozenRun('r0'),
        ],
        skipped: undefined,
        meta: { limit: 3, nextCursor: 'abc', totalCount: 12 },
        empty: [],
      };
      expect(answerJson(answer).toString()).toBe(JSON.stringify(answer));
    });

    it("joins the items' kept bytes instead of serializing them again", () => {
      const items = [frozenRun('r2'), frozenRun('r1')];
      const kept = items.map(item => frozenAnswerBytes(item));
      const stringify = jest.spyOn(JSON, 'stringify');
      try {
        const text = answerJson({ data: items, meta: { totalCount: 2 } });
        const sent: { data: { id: string }[] } = JSON.parse(text.toString());
        expect(sent.data.map(item => item.id)).toEqual(['r2', 'r1']);
        // The key "data", the key "meta" and the meta object: none of the items.
        expect(stringify).toHaveBeenCalledTimes(3);
        expect(stringify.mock.calls.map(([value]) => value)).not.toContain(
          items[0],
        );
      } finally {
        stringify.mockRestore();
      }
      expect(items.map(item => frozenAnswerBytes(item))).toEqual(kept);
    });

    it('serializes anything without frozen items as JSON.stringify does', () => {
      const date = new Date('2026-11-27T00:00:00Z');
      for (const answer of [
        { data: [{ id: 'r1' }], meta: { totalCount: 1 } },
        [frozenRun('r1')],
        { data: [frozenRun('r1')], toJSON: () => 'custom' },
        date,
        'text',
        null,
      ]) {
        expect(answerJson(answer).toString()).toBe(JSON.stringify(answer));
      }
    });
  });
});
