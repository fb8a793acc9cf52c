import net from 'node:net';

/**
 * What a cut looks like to the backend: `refused`, the database stopped (connections reset,
 * new ones refused at once); `silent`, the network between them lost (connections accepted
 * by nobody: nothing is answered, nothing is reset).
 */
export type CutKind = 'refused' | 'silent';

/**
 * A TCP proxy in front of a database that a test can cut and restore, to see what a backend
 * does while its database is gone: a restart of PostgreSQL, a failover, a network partition.
 */
export class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private cut: CutKind | undefined = undefined;
  private server: net.Server;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {
    this.server = this.createServer();
  }

  static async start(target: {
    host: string;
    port: number;
  }): Promise<CuttableProxy> {
    const probe = net.createServer();
    const port = await new Promise<number>(resolve =>
      probe.listen(0, '127.0.0.1', () =>
        resolve((probe.address() as net.AddressInfo).port),
      ),
    );
    await new Promise(resolve => probe.close(resolve));
    const proxy = new CuttableProxy(target, port);
    await proxy.listen();
    return proxy;
  }

  /** The connection string `connectionString` would be, through this proxy. */
  rewrite(connectionString: string): string {
    const url = new URL(connectionString);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Ends every connection through the proxy and answers new ones as `kind` says. */
  async cutOff(kind: CutKind): Promise<void> {
    this.cut = kind;
    for (const socket of this.sockets) {
      if (kind === 'refused') {
        socket.resetAndDestroy();
      } else {
        socket.pause();
      }
    }
    if (kind === 'refused') {
      this.sockets.clear();
      await new Promise(resolve => this.server.close(resolve));
    }
  }

  /** Connections are forwarded again; those held silent are dropped, as after a partition. */
  async restore(): Promise<void> {
    const wasRefused = this.cut === 'refused';
    this.cut = undefined;
    for (const socket of this.sockets) {
      socket.resetAndDestroy();
    }
    this.sockets.clear();
    if (wasRefused) {
      this.server = this.createServer();
      await this.listen();
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise(resolve => this.server.close(resolve));
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  private createServer(): net.Server {
    return net.createServer(client => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => undefined);
      if (this.cut === 'silent') {
        client.pause();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }
}
