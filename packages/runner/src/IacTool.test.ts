import os from 'node:os';
import { errorHeadlineOf, IacTool } from './IacTool';

describe('errorHeadlineOf', () => {
  it("finds a diagnostic's headline, boxed or not", () => {
    expect(errorHeadlineOf('Error: No configuration files')).toBe(
      'No configuration files',
    );
    expect(errorHeadlineOf('│ Error: Unsupported argument')).toBe(
      'Unsupported argument',
    );
    expect(errorHeadlineOf('  Error: Invalid provider configuration  ')).toBe(
      'Invalid provider configuration',
    );
  });

  it('ignores warnings, explanations and look-alikes', () => {
    expect(
      errorHeadlineOf('│ Warning: Unable to open CLI configuration file'),
    ).toBeUndefined();
    expect(
      errorHeadlineOf('Plan requires configuration to be present.'),
    ).toBeUndefined();
    expect(errorHeadlineOf('Errors: 2')).toBeUndefined();
    expect(errorHeadlineOf('Error:')).toBeUndefined();
  });

  it('keeps a headline short', () => {
    expect(errorHeadlineOf(`Error: ${'x'.repeat(1000)}`)).toHaveLength(300);
  });
});

describe('IacTool', () => {
  it('says which binary it cannot run, and where', async () => {
    const tool = new IacTool('/no/such/tofu', () => {});
    await expect(tool.run(['version'], os.tmpdir())).rejects.toThrow(
      `Cannot run /no/such/tofu in ${os.tmpdir()}: no such file or directory`,
    );
  });
});
