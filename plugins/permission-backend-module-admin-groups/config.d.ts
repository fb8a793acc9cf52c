export interface Config {
  permission?: {
    policy?: {
      /**
       * Entity refs of the users and groups that may do everything in the portal, e.g.
       * `group:default/platform-admins`. Everybody else may read.
       */
      admins?: string[];
    };
  };
}
