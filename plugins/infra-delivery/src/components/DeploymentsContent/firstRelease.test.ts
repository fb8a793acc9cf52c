import { taskDefinitionTemplate, typedTaskDefinition } from './firstRelease';

describe('the task definition of a first deployment, as typed', () => {
  it('is taken when the service would take it', () => {
    const definition = {
      family: 'web',
      containerDefinitions: [{ name: 'app', image: 'web:1' }],
      cpu: '256',
    };
    expect(typedTaskDefinition(JSON.stringify(definition))).toEqual({
      definition,
    });
  });

  it('says why not otherwise, the template included until its image is given', () => {
    const problemOf = (text: string) =>
      'problem' in typedTaskDefinition(text)
        ? (typedTaskDefinition(text) as { problem: string }).problem
        : undefined;
    expect(problemOf('{')).toMatch(/^Not JSON: /);
    expect(problemOf('"web"')).toBe(
      'A JSON object with the task definition’s family and containerDefinitions',
    );
    expect(problemOf('{"containerDefinitions": []}')).toBe(
      'family: letters, digits, - and _, at most 255',
    );
    expect(
      problemOf(
        '{"family": "web", "containerDefinitions": [{"name": "app", "image": "web 1"}]}',
      ),
    ).toBe(
      'containerDefinitions: at least one container, each with a name and an image (an image reference without spaces)',
    );
    expect(problemOf(taskDefinitionTemplate('web'))).toBe(
      'containerDefinitions: at least one container, each with a name and an image (an image reference without spaces)',
    );
  });
});
