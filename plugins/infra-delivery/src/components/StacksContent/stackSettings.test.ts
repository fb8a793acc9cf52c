import { stack } from '../../__testUtils__/infraDeliveryTestKit';
import {
  changedSettings,
  intervalProblem,
  settingsChange,
  settingsFormOf,
} from './stackSettings';

const network = stack({
  id: 'stack-network',
  name: 'Network',
  codeSourceId: 'cs-1',
  path: 'infra/network',
  driftCheckIntervalHours: 6,
});

describe('runner labels in the settings', () => {
  const prod = stack({ id: 'stack-prod', runnerLabels: ['env=prod'] });

  it('sends the labels typed, sorted and each once, or [] to let any runner take the stack', () => {
    const form = settingsFormOf(prod);
    expect(form.runnerLabels).toBe('env=prod');
    expect(
      settingsChange(prod, { ...form, runnerLabels: ' env=prod ' }),
    ).toEqual({});
    expect(
      settingsChange(prod, {
        ...form,
        runnerLabels: 'region=eu, env=prod env=prod',
      }),
    ).toEqual({ runnerLabels: ['env=prod', 'region=eu'] });
    expect(settingsChange(prod, { ...form, runnerLabels: '' })).toEqual({
      runnerLabels: [],
    });
    expect(changedSettings({ runnerLabels: [] })).toBe('runner labels');
  });
});

describe('settingsChange', () => {
  it('sends nothing for settings left as they were', () => {
    expect(settingsChange(network, settingsFormOf(network))).toEqual({});
    // Spaces around the name, and slashes around the directory, change nothing.
    expect(
      settingsChange(network, {
        ...settingsFormOf(network),
        name: ' Network ',
        path: '/infra/network/',
      }),
    ).toEqual({});
  });

  it('sends a cleared description as empty, and cleared hours and account as null', () => {
    const described = {
      ...network,
      description: 'VPC',
      cloudAccountId: 'ca-1',
    };
    expect(
      settingsChange(described, {
        ...settingsFormOf(described),
        description: '',
        cloudAccountId: '',
        driftCheckIntervalHours: ' ',
      }),
    ).toEqual({
      description: '',
      cloudAccountId: null,
      driftCheckIntervalHours: null,
    });
  });

  it('sends hours as a number, and no code source for an empty choice', () => {
    expect(
      settingsChange(network, {
        ...settingsFormOf(network),
        codeSourceId: '',
        driftCheckIntervalHours: '12',
      }),
    ).toEqual({ driftCheckIntervalHours: 12 });
  });
});

describe('intervalProblem', () => {
  it('takes empty or whole hours within the service’s bounds', () => {
    expect(intervalProblem('')).toBeUndefined();
    expect(intervalProblem('744')).toBeUndefined();
    expect(intervalProblem('0')).toMatch(/^Whole hours/);
    expect(intervalProblem('745')).toMatch(/^Whole hours/);
    expect(intervalProblem('2.5')).toMatch(/^Whole hours/);
    expect(intervalProblem('1e2')).toMatch(/^Whole hours/);
  });
});

describe('changedSettings', () => {
  it('names the changed settings in words', () => {
    expect(changedSettings({ path: 'x' })).toBe('working directory');
    expect(changedSettings({ name: 'x', path: 'y', autoApprove: true })).toBe(
      'name, working directory and approval',
    );
  });
});
