import {
  descriptionSchema,
  givenIdFromName,
  givenIdSchema,
  multiLineTextSchema,
  nameSchema,
  singleLineTextSchema,
} from './primitives';

describe('givenIdFromName', () => {
  it('makes a valid givenId of a name', () => {
    for (const [name, expected] of [
      ['Payments API', 'payments-api'],
      ['  Data Lake (EU) ', 'data-lake-eu'],
      ['Ünïcode — only', 'n-code-only'],
      ['x'.repeat(80), 'x'.repeat(50)],
    ]) {
      const givenId = givenIdFromName(name, 'stack');
      expect(givenId).toBe(expected);
      expect(givenIdSchema.safeParse(givenId).success).toBe(true);
    }
  });

  it('gives the fallback for a name without a letter or digit', () => {
    expect(givenIdFromName('— ✓ —', 'stack')).toBe('stack');
    expect(givenIdFromName('', '')).toBe('');
  });
});

describe('text of one line and of several lines', () => {
  const controls = [
    'a\u0000b',
    'bell\u0007',
    'del\u007f',
    'c1\u0085',
    'c1\u009f',
    'override\u202eoff',
    'embedding\u202a',
    'isolate\u2066x\u2069',
    'lone \ud800 surrogate',
    'lone \udc00 low surrogate',
    'escape\u001b[31m',
  ];
  const text = [
    'Payments API',
    'Zahlungen Ü — ä',
    '支付 日本語 한국어',
    'مدفوعات\u200f',
    'rocket 🚀 and 👩‍💻',
    'x'.repeat(255),
  ];

  it('takes letters of any script and emoji in a name, and refuses controls', () => {
    for (const name of text) {
      expect(nameSchema.safeParse(name).success).toBe(true);
    }
    for (const name of [...controls, 'two\nlines', 'tab\there', 'ls\u2028ps']) {
      const result = nameSchema.safeParse(name);
      expect(result.error?.issues.map(issue => issue.message)).toEqual([
        expect.stringMatching(/^must not contain control characters/),
      ]);
    }
    // Around a name, whitespace is trimmed as before.
    expect(nameSchema.parse('  Payments\n')).toBe('Payments');
  });

  it('keeps tabs and line breaks in a description, and refuses other controls', () => {
    for (const description of [...text, 'one\ntwo\r\n\tthree', 'ls\u2028ps']) {
      expect(descriptionSchema.safeParse(description).success).toBe(true);
    }
    for (const description of controls) {
      expect(descriptionSchema.safeParse(description).success).toBe(false);
    }
  });

  it('applies the same rule to bounded single-line strings', () => {
    const runnerId = singleLineTextSchema.min(1).max(128);
    expect(runnerId.safeParse('build-host-1 🚀').success).toBe(true);
    expect(runnerId.safeParse('\u0000').success).toBe(false);
    expect(runnerId.safeParse('').success).toBe(false);
    expect(multiLineTextSchema.safeParse('a\n\tb').success).toBe(true);
    expect(multiLineTextSchema.safeParse('a\u0000b').success).toBe(false);
  });
});
