/** What a secret is replaced with in a step's log and errors. */
export const REDACTED = '***';

/** Shorter values are not masked: a two-letter "secret" would blot out every word holding it. */
const MIN_SECRET_LENGTH = 4;

/**
 * Names of environment variables and backend settings whose values are credentials:
 * `PG_CONN_STR`, `TF_HTTP_PASSWORD`, `AWS_SECRET_ACCESS_KEY`, `ARM_CLIENT_SECRET`, a backend's
 * `conn_str`, `password`, `secret_key`, `token`, `sas_token`, `credentials`, …
 */
const SECRET_NAME =
  /passw(or)?d|secret|token|conn_?str|access_?key|credentials|private_?key|api_?key|encryption_?key/i;

/** `scheme://user:password@host`: the password of a URL (a conn_str, an http backend's address). */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/@\s"']*:)([^@/\s"']+)@/gi;

/** `password=…` of a libpq keyword/value connection string, quoted or not. */
const DSN_PASSWORD = /(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s'"]+)/gi;

/** Passwords a tool masked already (`http://runner:xxxxx@…`, `http://runner:***@…`). */
const MASKED = /^(\*+|x+)$/i;

/**
 * Masks credentials in the lines of a step (its log, its error) before they leave the runner:
 * the values of the runner's secret environment variables and of the stack's backend settings
 * (added once known), and any URL's or connection string's password. Terraform masks most of
 * them itself, not all: a `conn_str` it cannot parse is printed whole ("Error: parse
 * "postgres://postgres:…@…": invalid port").
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    this.add(secrets);
  }

  /** The secrets of an environment (the one the tool's commands inherit). */
  static fromEnv(env: NodeJS.ProcessEnv): SecretRedactor {
    return new SecretRedactor(
      Object.entries(env).flatMap(([name, value]) =>
        value !== undefined && SECRET_NAME.test(name)
          ? secretsOfValue(value)
          : [],
      ),
    );
  }

  add(secrets: Iterable<string>): void {
    for (const secret of secrets) {
      if (secret.length >= MIN_SECRET_LENGTH && !MASKED.test(secret)) {
        this.secrets.add(secret);
      }
    }
  }

  redact(text: string): string {
    let redacted = text
      .replace(URL_PASSWORD, (whole, before: string, password: string) =>
        MASKED.test(password) ? whole : `${before}${REDACTED}@`,
      )
      .replace(DSN_PASSWORD, `$1${REDACTED}`);
    // The longest first: a secret holding another one is masked whole.
    for (const secret of [...this.secrets].sort(
      (a, b) => b.length - a.length,
    )) {
      redacted = redacted.split(secret).join(REDACTED);
    }
    return redacted;
  }
}

/** A credential's value, and the password inside it when it is a URL or a connection string. */
export function secretsOfValue(value: string): string[] {
  return [value, ...passwordsIn(value)];
}

/** The passwords of the URLs and connection strings in a value (decoded too: `p%40ss`, `p@ss`). */
export function passwordsIn(value: string): string[] {
  const passwords = [
    ...[...value.matchAll(URL_PASSWORD)].map(match => match[2]),
    ...[...value.matchAll(DSN_PASSWORD)].map(match =>
      match[2].replace(/^'|'$/g, ''),
    ),
  ].flatMap(password => [password, safeDecode(password)]);
  return [...new Set(passwords)];
}

/** `p%40ss` → `p@ss`: a URL's password as a tool may print it, decoded. */
function safeDecode(password: string): string {
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

/** Whether a setting's name says its value is a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
