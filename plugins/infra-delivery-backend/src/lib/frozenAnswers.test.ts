import { freezeAnswer, frozenAnswerBytes } from './frozenAnswers';

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
});
