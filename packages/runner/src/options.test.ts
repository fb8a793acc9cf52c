import { parseOptions, UsageError } from './options';

describe('parseOptions', () => {
  it('reads the flags', () => {
    const options = parseOptions([
      '--url',
      'http://localhost:7007/api/infra-delivery/',
      '--token',
      'idk_x',
      '--iac-binary',
      'terraform',
      '--once',
      '--labels',
      'linux, gpu,',
    ]);
    expect(options).toMatchObject({
      labels: ['gpu', 'linux'],
      url: 'http://localhost:7007/api/infra-delivery',
      token: 'idk_x',
      iacBinary: 'terraform',
      once: true,
      pollIntervalMs: 2000,
      // Its claims are held by the service while there is no work.
      waitSeconds: 20,
    });
  });

  it('stops a step after --step-timeout minutes, two hours unless told, none with 0', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    expect(parseOptions(base)).toMatchObject({ stepTimeoutMs: 7_200_000 });
    expect(parseOptions([...base, '--step-timeout', '0.5'])).toMatchObject({
      stepTimeoutMs: 30_000,
    });
    expect(parseOptions([...base, '--step-timeout', '0'])).toMatchObject({
      stepTimeoutMs: 0,
    });
    for (const wrong of ['-1', 'two', '100000']) {
      expect(() => parseOptions([...base, `--step-timeout=${wrong}`])).toThrow(
        '--step-timeout is a number of minutes from 0 (no limit) to 10080 (a week)',
      );
    }
  });

  it('checks out the commits of git-triggered runs unless --no-checkout', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    expect(parseOptions(base)).toMatchObject({ checkout: true });
    expect(parseOptions([...base, '--no-checkout'])).toMatchObject({
      checkout: false,
    });
  });

  it('resolves stack paths where the command was typed, also through npx or yarn', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    expect(parseOptions(base, {})).toMatchObject({ sourceRoot: process.cwd() });
    expect(
      parseOptions(base, { INIT_CWD: '/home/dev/infrastructure' }),
    ).toMatchObject({ sourceRoot: '/home/dev/infrastructure' });
    expect(
      parseOptions([...base, '--source-root', '/srv/iac'], {
        INIT_CWD: '/home/dev/infrastructure',
      }),
    ).toMatchObject({ sourceRoot: '/srv/iac' });
  });

  it('takes its labels from INFRA_DELIVERY_RUNNER_LABELS unless --labels, and refuses labels no stack can require', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    const env = { INFRA_DELIVERY_RUNNER_LABELS: 'env=prod, region=eu' };
    expect(parseOptions(base, env)).toMatchObject({
      labels: ['env=prod', 'region=eu'],
    });
    expect(parseOptions([...base, '--labels', 'env=dev'], env)).toMatchObject({
      labels: ['env=dev'],
    });
    expect(parseOptions(base, {})).toMatchObject({ labels: [] });
    expect(() => parseOptions([...base, '--labels', 'env prod'], {})).toThrow(
      /"env prod" is not a label a stack can require/,
    );
  });

  it('takes the token from the environment', () => {
    expect(
      parseOptions(['--url', 'http://x'], {
        INFRA_DELIVERY_RUNNER_TOKEN: 'idk_env',
      }),
    ).toMatchObject({ token: 'idk_env' });
  });

  it('refuses a missing url or token, and unknown flags', () => {
    expect(() => parseOptions(['--url', 'http://x'], {})).toThrow(UsageError);
    expect(() => parseOptions(['--bogus'], {})).toThrow();
  });
  it.each(['5', '1500.5', '3600001', 'often'])(
    'refuses --poll-interval %s, which the service would refuse with every claim',
    value => {
      expect(() =>
        parseOptions(['--url', 'http://x', '--poll-interval', value], {
          INFRA_DELIVERY_RUNNER_TOKEN: 'idk_env',
        }),
      ).toThrow(
        '--poll-interval is a whole number of milliseconds from 10 to 3600000',
      );
    },
  );
  it('takes --wait 0 (claims answered at once) up to 60 seconds', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    expect(parseOptions([...base, '--wait', '0'])).toMatchObject({
      waitSeconds: 0,
    });
    expect(parseOptions([...base, '--wait', '60'])).toMatchObject({
      waitSeconds: 60,
    });
  });
  it.each(['-1', '2.5', '61', 'long'])(
    'refuses --wait %s, which the service would refuse with every claim',
    value => {
      expect(() =>
        parseOptions([
          '--url',
          'http://x',
          '--token',
          'idk_x',
          `--wait=${value}`,
        ]),
      ).toThrow('--wait is a whole number of seconds from 0 to 60');
    },
  );
  it('gives a stopped command 30 s to exit unless --stop-grace says otherwise', () => {
    const base = ['--url', 'http://x', '--token', 'idk_x'];
    expect(parseOptions(base)).toMatchObject({ stopGraceMs: 30_000 });
    expect(parseOptions([...base, '--stop-grace', '2.5'])).toMatchObject({
      stopGraceMs: 2500,
    });
    expect(() => parseOptions([...base, '--stop-grace', 'soon'])).toThrow(
      '--stop-grace is a number of seconds, 0 or more',
    );
  });
});
