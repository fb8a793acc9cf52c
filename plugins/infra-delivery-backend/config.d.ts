export interface Config {
  /** The infrastructure delivery service. */
  infraDelivery?: {
    portalOrganization?: {
      /**
       * Name of the organization portal (Backstage) users act in, created at first start.
       * Defaults to `organization.name`.
       */
      name?: string;
    };
    /**
     * Roles of portal users, given when a user first calls the service: every mapping whose
     * entity ref is the user or one of their groups applies, and the strongest role wins.
     */
    roleMappings?: Array<{
      /** A user or group entity ref, e.g. `group:default/platform-team`. */
      entityRef: string;
      role: 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER';
    }>;
    /** Role of a portal user whom no mapping names. Default VIEWER. */
    defaultRole?: 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER';
    /** Role of other Backstage plugins calling with service tokens. Default VIEWER. */
    serviceRole?: 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER';
    demo?: {
      /**
       * Seed the portal organization once with a demo project, stacks and runs in every
       * state (local development only).
       */
      enabled?: boolean;
    };
    /** Attempts allowed per window on the unauthenticated endpoints (429 beyond). */
    rateLimits?: {
      /** Sign-ups per client address. Default 20 per 3600 s. */
      signup?: { limit?: number; windowSeconds?: number };
      /** Token requests per client address. Default 60 per 300 s. */
      tokenPerAddress?: { limit?: number; windowSeconds?: number };
      /** Token requests per email. Default 10 per 300 s. */
      tokenPerEmail?: { limit?: number; windowSeconds?: number };
    };
  };
}
