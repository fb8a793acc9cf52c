export interface Config {
  infraDelivery?: {
    runners?: {
      /**
       * The command that starts a runner, as the portal shows it in the command to copy (the
       * token, `--url` and the other options are added), e.g. `yarn infra-delivery-runner`
       * where the runner is a dependency of the project it runs in. By default the portal
       * shows `npx` running the package `@infra-delivery/runner`.
       * @visibility frontend
       */
      command?: string;
    };
  };
}
