import { z } from 'zod';
import { idSchema, requestBody, timestampSchema } from './primitives';

export const codeSourceVisibilitySchema = z
  .enum(['PUBLIC', 'PRIVATE', 'INTERNAL'])
  .meta({ id: 'CodeSourceVisibility' });
export type CodeSourceVisibility = z.infer<typeof codeSourceVisibilitySchema>;

/** How the service reaches the repository: a GitHub App installation. */
export const codeSourceAuthSchema = z
  .object({
    kind: z.literal('installation'),
    forgeInstallationId: z.string(),
  })
  .meta({ id: 'CodeSourceAuth' });

/** A git repository on a hosted forge (GitHub or GitHub Enterprise Server). */
export const codeSourceSchema = z
  .object({
    accessLost: z
      .boolean()
      .describe(
        'The installation no longer reaches the repository (set by the last verification)',
      ),
    auth: codeSourceAuthSchema,
    createdAt: timestampSchema,
    defaultBranch: z.string(),
    gitRepositoryId: z.string().describe("The forge's id of the repository"),
    id: idSchema,
    organizationId: idSchema,
    repoName: z.string().describe('`owner/name` on the forge'),
    repoUrl: z.string().describe('`https://{host}/{owner}/{name}`'),
    type: z.enum(['HOSTED_FORGE']),
    updatedAt: timestampSchema,
    visibility: codeSourceVisibilitySchema,
    accessCheckedAt: timestampSchema
      .optional()
      .describe('When the installation last proved it reaches the repository'),
  })
  .meta({ id: 'CodeSource' });
export type CodeSource = z.infer<typeof codeSourceSchema>;

export const createCodeSourceRequestSchema = requestBody(
  z.object({
    forgeInstallationId: z
      .string()
      .regex(/^[1-9]\d{0,19}$/, 'the numeric id of a GitHub App installation')
      .describe(
        'Id of the GitHub App installation that reaches the repository',
      ),
    repoUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe(
        'Web address of the repository, `https://{host}/{owner}/{name}`; the host must be configured in `integrations.github`',
      ),
    type: z.literal('HOSTED_FORGE'),
  }),
);

/** NUL and the other C0 controls, and DEL: never part of a path or a ref. */
function hasControlCharacter(value: string): boolean {
  return [...value].some(character => {
    const code = character.codePointAt(0)!;
    return code < 0x20 || code === 0x7f;
  });
}

/** A relative directory of a repository: no `.` or `..` segments, no backslashes. */
export const repositoryPathSchema = z
  .string()
  .max(1024)
  .refine(
    path =>
      !path.includes('\\') &&
      // Backstage's GitHub URL reader decodes a file's path once more than it was encoded: a
      // `%` in it was asked for as something else, and answered as GitHub being unavailable.
      !path.includes('%') &&
      !hasControlCharacter(path) &&
      path.split('/').every(segment => segment !== '..' && segment !== '.'),
    'must be a directory inside the repository (no `.` or `..` segments, no `%`)',
  );

/** `/infra/network/` → `infra/network`: repository directories are kept without slashes around. */
export function normalizeRepositoryPath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** A git branch or tag name, as git itself accepts it (`git check-ref-format`, simplified). */
export const gitRefSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^(?!\/|.*\/$|.*\/\/|.*\.\.|.*@\{|.*\.lock$|.*\.$)[^\s~^:?*[\\]+$/,
    'is not a valid git branch or tag name',
  )
  .refine(
    ref => !hasControlCharacter(ref),
    'is not a valid git branch or tag name',
  );

/** #26: `branch` defaults to the default branch, `basePath` to the repository root. */
export const moduleYamlExistsQuerySchema = z.object({
  branch: gitRefSchema
    .optional()
    .describe("Branch to look on; the code source's default branch if omitted"),
  basePath: repositoryPathSchema
    .optional()
    .describe('Directory that should hold `module.yaml`; the root if omitted'),
});

export const moduleYamlExistsSchema = z
  .object({ exists: z.boolean() })
  .meta({ id: 'ModuleYamlExists' });
