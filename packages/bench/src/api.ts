/** A caller of the bench backend's HTTP API. */
export class Api {
  constructor(readonly baseUrl: string, private token?: string) {}

  withToken(token: string) {
    return new Api(this.baseUrl, token);
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string; json: any }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json };
  }

  /** Fails loudly, with the answer, when the status is not the expected one. */
  async expect(
    status: number,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<any> {
    const result = await this.request(method, path, body);
    if (result.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${
          result.status
        }: ${result.text.slice(0, 500)}`,
      );
    }
    return result.json;
  }
}
