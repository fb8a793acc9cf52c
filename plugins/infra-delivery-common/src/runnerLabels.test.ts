import { requiredRunnerLabelsSchema } from './schemas';
import {
  carriesRunnerLabels,
  noRunnerWithLabelsReason,
  normalizeRunnerLabels,
  runnerLabelsProblem,
  typedRunnerLabels,
} from './runnerLabels';

describe('runner labels', () => {
  it('lets a runner carrying every required label (or any, for none) claim', () => {
    expect(carriesRunnerLabels([], [])).toBe(true);
    expect(carriesRunnerLabels(['env=dev'], undefined)).toBe(true);
    expect(carriesRunnerLabels(['env=prod', 'linux'], ['env=prod'])).toBe(true);
    expect(carriesRunnerLabels(['env=prod'], ['env=prod', 'region=eu'])).toBe(
      false,
    );
    expect(carriesRunnerLabels([], ['env=prod'])).toBe(false);
  });

  it('accepts labels a runner can be given, and refuses others', () => {
    expect(
      requiredRunnerLabelsSchema.safeParse(['env=prod', 'aws:acct/1_a.b-c'])
        .success,
    ).toBe(true);
    for (const bad of [['env prod'], ['a,b'], [''], ['-x'], ['x', 'x']]) {
      expect(requiredRunnerLabelsSchema.safeParse(bad).success).toBe(false);
    }
    expect(normalizeRunnerLabels(['b', 'a', 'b'])).toEqual(['a', 'b']);
  });

  it('reads typed labels, and says which one a runner could not carry', () => {
    expect(typedRunnerLabels(' region=eu, env=prod env=prod ,')).toEqual([
      'env=prod',
      'region=eu',
    ]);
    expect(typedRunnerLabels('')).toEqual([]);
    expect(runnerLabelsProblem('env=prod, aws:123/eu')).toBeUndefined();
    expect(runnerLabelsProblem('')).toBeUndefined();
    expect(runnerLabelsProblem('env=prod, -bad')).toBe(
      '"-bad" is not a label: a letter or digit, then letters, digits or _ . : = / - (env=prod)',
    );
    const many = Array.from({ length: 33 }, (_, i) => `l${i}`).join(',');
    expect(runnerLabelsProblem(many)).toBe('At most 32 labels');
  });

  it('names at most five runners’ labels', () => {
    const reason = noRunnerWithLabelsReason(
      ['env=prod'],
      Array.from({ length: 7 }, (_, i) => [`n=${i}`]),
    );
    expect(reason).toContain(
      '7 runners are online (labels: n=0 | n=1 | n=2 | n=3 | n=4; 2 more)',
    );
    expect(noRunnerWithLabelsReason(['a'], [['b']])).toContain(
      'the one runner online carries labels: b',
    );
  });
});
