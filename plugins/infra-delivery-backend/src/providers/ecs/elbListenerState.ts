import { LoadBalancer } from '@aws-sdk/client-ecs';
import { ElbListenerState } from '@infra-delivery/plugin-infra-delivery-common';

type ListenerRule = ElbListenerState['rules'][number];

/**
 * The parts of an Elastic Load Balancing ARN, e.g.
 * `arn:aws:elasticloadbalancing:eu-west-1:111122223333:listener-rule/app/web/50dc6c495c0c9188/f2f7dc8efc522ab2/9683b2d02a6cabee`:
 * the load balancer, listener and rule are prefixes of one another.
 */
function parseElbArn(arn: string):
  | {
      prefix: string;
      kind: string;
      path: string[];
    }
  | undefined {
  const match =
    /^(arn:aws[\w-]*:elasticloadbalancing:[\w-]+:\d{12}:)([\w-]+)\/(.+)$/.exec(
      arn,
    );
  return match
    ? { prefix: match[1], kind: match[2], path: match[3].split('/') }
    : undefined;
}

/** `…:targetgroup/web-blue/73e2d6bc24d8a067` → `web-blue` */
function targetGroupNameOf(arn: string | undefined): string | undefined {
  const parsed = arn ? parseElbArn(arn) : undefined;
  return parsed?.kind === 'targetgroup' ? parsed.path[0] : undefined;
}

function ruleOf(
  ruleRef: string,
  targetGroupRef: string,
  role: 'production' | 'test',
): { loadBalancerRef: string; rule: ListenerRule } | undefined {
  const parsed = parseElbArn(ruleRef);
  // listener-rule/<type>/<name>/<lb id>/<listener id>/<rule id>
  if (parsed?.kind !== 'listener-rule' || parsed.path.length !== 5) {
    return undefined;
  }
  const [type, name, lbId, listenerId] = parsed.path;
  const targetGroupName = targetGroupNameOf(targetGroupRef);
  return {
    loadBalancerRef: `${parsed.prefix}loadbalancer/${type}/${name}/${lbId}`,
    rule: {
      isDefaultRule: false,
      listenerRef: `${parsed.prefix}listener/${type}/${name}/${lbId}/${listenerId}`,
      ruleRef,
      targetGroupRef,
      ...(targetGroupName ? { targetGroupName } : {}),
      role,
    },
  };
}

/**
 * The listener rules through which a service's blue/green deployment moves traffic, as the
 * service declares them (`loadBalancers[].advancedConfiguration`) when the deployment starts:
 * the production rule forwards to the service's target group, the test rule to the alternate
 * one. Captured so that a person can see which rules the deployment switches, and what to
 * switch back.
 */
export function elbListenerStateOf(
  loadBalancers: LoadBalancer[] | undefined,
  capturedAt: Date,
): ElbListenerState[] | undefined {
  const byLoadBalancer = new Map<string, ListenerRule[]>();
  for (const lb of loadBalancers ?? []) {
    const advanced = lb.advancedConfiguration;
    if (!advanced || !lb.targetGroupArn) {
      continue;
    }
    const rules = [
      advanced.productionListenerRule &&
        ruleOf(
          advanced.productionListenerRule,
          lb.targetGroupArn,
          'production',
        ),
      advanced.testListenerRule &&
        advanced.alternateTargetGroupArn &&
        ruleOf(
          advanced.testListenerRule,
          advanced.alternateTargetGroupArn,
          'test',
        ),
    ];
    for (const found of rules) {
      if (found) {
        byLoadBalancer.set(found.loadBalancerRef, [
          ...(byLoadBalancer.get(found.loadBalancerRef) ?? []),
          found.rule,
        ]);
      }
    }
  }
  if (byLoadBalancer.size === 0) {
    return undefined;
  }
  return [...byLoadBalancer].map(([loadBalancerRef, rules]) => ({
    capturedAt: capturedAt.toISOString(),
    loadBalancerRef,
    rules,
  }));
}
