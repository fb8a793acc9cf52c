import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorHeadlineOf, IacTool } from './IacTool';

const FAKE_IAC = path.resolve(__dirname, '__testUtils__/fake-iac');

/** Whether a process runs (a zombie, exited but not reaped yet, does not). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting: ${what}`);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

const childPidOf = (lines: string[]) =>
  Number(
    lines
      .find(line => line.startsWith('child pid '))
      ?.slice('child pid '.length),
  );

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

describe('IacTool stopping a command', () => {
  const started: number[] = [];
  let cwd: string;

  beforeEach(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'iac-tool-'));
  });

  afterEach(() => {
    delete process.env.FAKE_IAC_HANG;
    delete process.env.FAKE_IAC_ORPHAN;
    delete process.env.FAKE_IAC_STUBBORN;
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('interrupts the command, then kills it with what it started when it will not stop', async () => {
    process.env.FAKE_IAC_HANG = 'apply';
    process.env.FAKE_IAC_STUBBORN = '1';
    const lines: string[] = [];
    const tool = new IacTool(FAKE_IAC, line => lines.push(line), {
      stopGraceMs: 500,
    });
    const running = tool.run(['apply'], cwd);
    await until(
      () => lines.some(l => l.startsWith('still creating')),
      'progress',
    );
    const child = childPidOf(lines);
    started.push(child);
    expect(alive(child)).toBe(true);

    tool.stop('the run was cancelled');
    const result = await running;

    // Interrupted first (SIGINT, as Ctrl-C: Terraform stops gracefully on it), then killed.
    expect(lines).toContain('Interrupt received.');
    expect(lines).not.toContain('Terminate received.');
    expect(result).toMatchObject({
      exitCode: 1,
      stopped: 'the run was cancelled',
    });
    // The process it started, which held its output open and ignored the interrupt, is gone.
    await until(() => !alive(child), 'the child killed');
    // Nothing more of the step runs.
    await expect(tool.run(['output', '-json'], cwd)).resolves.toMatchObject({
      stopped: 'the run was cancelled',
    });
  });

  it('settles a command that stopped on its interrupt, though a process it left holds its output', async () => {
    process.env.FAKE_IAC_HANG = 'plan';
    const lines: string[] = [];
    // A grace period far longer than the test: the command exited, nothing waits for it.
    const tool = new IacTool(FAKE_IAC, line => lines.push(line), {
      stopGraceMs: 600_000,
    });
    const running = tool.run(['plan'], cwd);
    await until(
      () => lines.some(l => l.startsWith('still creating')),
      'progress',
    );
    const child = childPidOf(lines);
    started.push(child);

    tool.stop('the run was cancelled');
    const result = await running;
    // What the tool said while it stopped is kept.
    expect(lines).toEqual(
      expect.arrayContaining([
        'Interrupt received.',
        'Stopping operation...',
        'Error: execution halted',
      ]),
    );
    expect(result.stopped).toBe('the run was cancelled');
    await until(() => !alive(child), 'the child killed');
  });

  it('settles a command that exited, though a process it left holds its output', async () => {
    process.env.FAKE_IAC_ORPHAN = 'init';
    const lines: string[] = [];
    const tool = new IacTool(FAKE_IAC, line => lines.push(line), {
      drainMs: 200,
    });
    const result = await tool.run(['init'], cwd);
    started.push(childPidOf(lines));
    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.stopped).toBeUndefined();
    expect(lines).toContain('init done');
  });
});
