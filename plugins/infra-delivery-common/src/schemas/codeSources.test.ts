import { repositoryPathSchema } from './codeSources';

describe('repositoryPathSchema', () => {
  it.each(['', 'modules/vpc', 'infra/network-2', 'a b/c'])('takes %j', path => {
    expect(repositoryPathSchema.safeParse(path).success).toBe(true);
  });

  it.each(['../up', 'a/./b', 'a\\b', 'a\u0000b', '%', 'modules/50%'])(
    'refuses %j',
    path => {
      expect(repositoryPathSchema.safeParse(path).success).toBe(false);
    },
  );
});
