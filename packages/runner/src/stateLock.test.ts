import { heldLockOf, StateLockReader } from './stateLock';
import { backendOutput } from './__testUtils__/backendOutput';

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
      described: true,
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

describe('the locks of remote backends, as Terraform 1.11 prints them', () => {
  it('pg: reads its words, and does not take the Lock Info (its own request) for the holder', () => {
    const lock = read(backendOutput('pg-locked.txt'));
    expect(lock).toMatchObject({
      errorMessage: 'Workspace is already locked: default',
      // This command's own request: a plan, made just now.
      id: '82394b82-7110-8843-2550-a5ea3bccf999',
      operation: 'OperationTypePlan',
      described: true,
    });
    expect(heldLockOf(lock!)).toEqual({ backend: 'pg', holder: {} });
    expect(
      heldLockOf(read(backendOutput('pg-locked-workspace-creation.txt'))!),
    ).toEqual({ backend: 'pg', holder: {} });
  });

  it("http: joins the error message Terraform wrapped, and takes the holder's ID from it", () => {
    const lock = read(backendOutput('http-locked.txt'));
    expect(lock?.errorMessage).toBe(
      'HTTP remote state already locked: ID=c92a8f49-298f-8472-fcc8-06bb9229fcb1',
    );
    expect(lock?.id).toBe('cab17cc3-b2cd-a301-ff8d-7e0d723c786d');
    expect(heldLockOf(lock!)).toEqual({
      backend: 'http',
      holder: { id: 'c92a8f49-298f-8472-fcc8-06bb9229fcb1' },
    });
  });

  it('http: a server that did not describe the lock leaves the holder unknown', () => {
    expect(
      heldLockOf(read(backendOutput('http-locked-unreadable-body.txt'))!),
    ).toEqual({ backend: 'http', holder: {} });
  });

  it('http answering 503 to LOCK: the message whole, and no Lock Info', () => {
    expect(read(backendOutput('http-lock-503.txt'))).toEqual({
      errorMessage:
        'Failed to lock: LOCK http://127.0.0.1:8123/state/network giving up after 3 attempt(s)',
    });
  });

  it("the local backend's Lock Info is the holder's", () => {
    const lock = {
      id: 'ef25',
      who: 'root@vm',
      errorMessage: 'resource temporarily unavailable',
      described: true,
    };
    expect(heldLockOf(lock)).toEqual({
      holder: {
        id: 'ef25',
        who: 'root@vm',
        errorMessage: 'resource temporarily unavailable',
      },
    });
  });
});
