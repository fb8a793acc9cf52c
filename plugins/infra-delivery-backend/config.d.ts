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
    /**
     * Where the frontend plugin's Infrastructure page is mounted, as browsers reach it.
     * Links the service sends people to (the self-hosted forge login and its OAuth callback)
     * start here. Default: `app.baseUrl` + `/infra-delivery`.
     */
    portalUrl?: string;
    /** Role of a portal user whom no mapping names. Default VIEWER. */
    defaultRole?: 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER';
    /** Role of other Backstage plugins calling with service tokens. Default VIEWER. */
    serviceRole?: 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER';
    /**
     * Encrypts secrets kept at rest (OAuth client secrets, members' forge tokens) with
     * AES-256-GCM: the base64 encoding of 32 random bytes, e.g. `openssl rand -base64 32`.
     * Without it a key generated once is kept in the plugin database; configure one in
     * production. Changing it makes stored secrets unreadable.
     * @visibility secret
     */
    secretsKey?: string;
    /**
     * Backstage notifications (`@backstage/plugin-notifications-backend` must be installed) to
     * the owners of the catalog entity concerned, for the portal organization's stacks. Every
     * kind is sent unless turned off here.
     */
    notifications?: {
      /** `false` turns every kind off. Default true. */
      enabled?: boolean;
      /** A run waits for an approval. Default true. */
      approvalWaiting?: boolean;
      /** A run (a drift check too) failed. Default true. */
      runFailed?: boolean;
      /** A deployment failed or was rolled back. Default true. */
      deploymentFailed?: boolean;
      /** A drift check found a stack drifted from its code. Default true. */
      driftFound?: boolean;
    };
    demo?: {
      /**
       * Seed the portal organization once with a demo project, stacks and runs in every
       * state (local development only).
       */
      enabled?: boolean;
    };
    /**
     * Who may sign up through `POST /auth/signup` (people and scripts outside the portal; portal
     * users never sign up). `open`: anyone who reaches the backend, into a new organization of
     * their own, as the specification has it. `invitations-only`: only with an invitation of an
     * organization (403 `InfraDelivery:Signup:INVITATION_REQUIRED` without one), for a portal
     * whose backend everyone in the company reaches. Default `open`.
     */
    signups?: 'open' | 'invitations-only';
    /** How passwords of people who sign up through `POST /auth/signup` are hashed. */
    passwords?: {
      /**
       * scrypt's cost as log2 of N, 10 to 17: 15 (N = 32,768, about 50 ms a password) by default;
       * 17 is OWASP's recommendation, at 128 MiB a hash. A stored password keeps the parameters it
       * was hashed with, so a change applies to passwords set from then on and locks no one out.
       * The plugin's own tests lower it; a production portal never should.
       */
      scryptCost?: number;
    };
    /** Attempts allowed per window on the unauthenticated endpoints (429 beyond). */
    rateLimits?: {
      /** Sign-ups per client address. Default 20 per 3600 s. */
      signup?: { limit?: number; windowSeconds?: number };
      /** Token requests per client address. Default 60 per 300 s. */
      tokenPerAddress?: { limit?: number; windowSeconds?: number };
      /**
       * Wrong passwords for one account from one client address: from the `limit`-th on,
       * each makes that address wait twice as long as the one before (1 s, 2 s, 4 s, …) up to
       * `windowSeconds` for that account. A right password resets it; the owner at another
       * address never waits. Default 10 and 300 s.
       */
      tokenPerEmail?: { limit?: number; windowSeconds?: number };
      /**
       * Requests whose API key fails verification (unknown, revoked, expired or mistyped),
       * per client address. Default 100 per 60 s.
       */
      apiKeyFailuresPerAddress?: { limit?: number; windowSeconds?: number };
    };
    /** The pipeline engine. */
    engine?: {
      /**
       * How long a runner's lease on a step lasts without a heartbeat; a step whose lease
       * lapsed is queued again as a new attempt. Default 60.
       */
      leaseSeconds?: number;
    };
    /** The runners that execute IaC steps. */
    runners?: {
      /** A runner seen within this many seconds is ONLINE. Default 60. */
      onlineSeconds?: number;
      /** OFFLINE runners are forgotten after this many days. Default 7. */
      retentionDays?: number;
      /**
       * Development only (ignored when NODE_ENV is production): the backend keeps a
       * "Local runner" service account in the portal organization and writes a live API key
       * of it to `tokenFile` (mode 0600; relative to the backend's working directory), which
       * `scripts/start` hands to the reference runner. The key is never logged.
       */
      localRunner?: {
        tokenFile?: string;
      };
    };
    /** Cloud accounts: onboarding templates and the cloud the service calls. */
    cloud?: {
      /**
       * `aws` assumes each account's role through STS (the platform's own credentials come
       * from the AWS default provider chain) and reads CloudWatch. `local`, the default, calls
       * no cloud: for development and tests, `POST /cloud-accounts/{id}/connect-local`
       * connects an account and metrics are deterministic synthetic series.
       */
      driver?: 'aws' | 'local';
      /**
       * The IAM principal the service runs as, which onboarding roles trust (with the
       * account's external id). Required with the aws driver.
       */
      platformPrincipalArn?: string;
      /** Region of STS calls and of the console's quick-create link. Default us-east-1. */
      region?: string;
      /**
       * Lifetime of template URLs (and of the presigned S3 URL of the quick-create link) in
       * seconds, 60 to 604800 (7 days). Default 86400.
       */
      templateUrlTtlSeconds?: number;
      /**
       * With the aws driver: a bucket of the platform's own AWS account to which each
       * account's onboarding template is uploaded (PutObject, no ACL: the object stays
       * private). The template-url answer then carries `quickCreateUrl`, an AWS console
       * quick-create link to a presigned GET URL of that object with the template URL's
       * expiry; the console reads templates from Amazon S3 only, so without a bucket there is
       * no quick-create link and the stack is created from the downloaded template. The
       * service's credentials (default provider chain) need s3:PutObject and s3:GetObject on
       * `arn:aws:s3:::<bucket>/<keyPrefix>*`; presigned URLs signed with temporary
       * credentials end when those credentials do. Ignored by the local driver.
       */
      templateBucket?: {
        /** The bucket name. */
        bucket: string;
        /** The bucket's region. Default: `cloud.region`. */
        region?: string;
        /**
         * Prepended to the object keys `<cloudAccountId>/onboarding-v<version>.yaml`; `/` for
         * the bucket's root. Default `infra-delivery/onboarding-templates/`.
         */
        keyPrefix?: string;
      };
    };
    /** Container deployments of ECS services. */
    deployments?: {
      /**
       * With the local cloud driver, how long each stage of a simulated deployment takes, in
       * milliseconds. Default 2000.
       */
      localStageMillis?: number;
    };
    /** Infrastructure events from EventBridge (`POST /infrastructure-events/ingest`). */
    events?: {
      /**
       * The shared secret an EventBridge API destination sends in the
       * `x-infra-delivery-ingest-token` header, at least 32 characters. Without it ingestion
       * answers 503.
       * @visibility secret
       */
      ingestToken?: string;
    };
  };
}
