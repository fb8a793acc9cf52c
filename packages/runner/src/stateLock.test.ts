import { StateLockReader, stateLockedError } from './stateLock';

const read = (lines: string[]) => {
  const reader = new StateLockReader();
  lines.forEach(line => reader.read(line));
  return reader.lock;
};

describe('StateLockReader', () => {
  it("reads the lock from Terraform's boxed diagnostic (without -no-color)", () => {
    expect(
      read([
        '╷',
        '│ Error: Error acquiring the state lock',
        '│ ',
        '│ Error message: ConditionalCheckFailedException: The conditional request failed',
        '│ Lock Info:',
        '│   ID:        9db590f1-b6fe-c5f2-2678-8804f089deba',
        '│   Path:      my-bucket/network/terraform.tfstate',
        '│   Operation: OperationTypePlan',
        '│   Who:       ci@build-7',
        '│   Version:   1.9.8',
        '│   Created:   2026-11-30 22:01:02.1 +0000 UTC',
        '│   Info:      ',
        '╵',
      ]),
    ).toEqual({
      errorMessage:
        'ConditionalCheckFailedException: The conditional request failed',
      id: '9db590f1-b6fe-c5f2-2678-8804f089deba',
      path: 'my-bucket/network/terraform.tfstate',
      operation: 'OperationTypePlan',
      who: 'ci@build-7',
      version: '1.9.8',
      created: '2026-11-30 22:01:02.1 +0000 UTC',
    });
  });

  it('reads nothing from other failures, nor from look-alike lines before the headline', () => {
    expect(
      read([
        '  ID:        not-a-lock',
        'Error: Unsupported argument',
        '  Who:       nobody',
      ]),
    ).toBeUndefined();
    expect(read(['Error: Error acquiring the state lock'])).toEqual({});
  });
});

describe('stateLockedError', () => {
  it('names the command that releases the lock, and the docs of the tool in use', () => {
    const error = stateLockedError(
      'tofu plan',
      1,
      { id: 'abc', who: 'ana@laptop', operation: 'OperationTypePlan' },
      'tofu',
    );
    expect(error.message).toBe(
      "tofu plan could not lock the stack's state: it is locked by ana@laptop for a plan (lock ID abc)",
    );
    expect(error.description).toContain('tofu force-unlock -force abc');
    expect(error.action?.url).toBe(
      'https://opentofu.org/docs/cli/commands/force-unlock/',
    );
  });

  it('says so without a lock ID when the backend gave none', () => {
    const error = stateLockedError('terraform plan', 1, {}, 'terraform');
    expect(error.message).toBe(
      "terraform plan could not lock the stack's state: it is locked",
    );
    expect(error.description).toContain(
      'terraform force-unlock -force <lock ID>',
    );
    expect(error.metadata).toEqual({ command: 'terraform plan', exitCode: 1 });
  });
});
