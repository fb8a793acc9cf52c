/**
 * A `terraform show -json` plan creating `count` resources, shaped like a real one: a mix of
 * instances, buckets and records in nested modules, with attribute maps of realistic size.
 */
export function syntheticPlan(
  count: number,
  options: { seed?: string; action?: 'create' | 'update' } = {},
) {
  const seed = options.seed ?? 'bench';
  const action = options.action ?? 'create';
  const types = ['aws_instance', 'aws_s3_bucket', 'aws_route53_record'];
  const resourceChanges = [];
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length];
    const moduleAddress = `module.app_${i % 50}`;
    const address = `${moduleAddress}.${type}.r${i}`;
    const after = {
      id: action === 'create' ? null : `${seed}-${i}`,
      tags: { team: `team-${i % 17}`, environment: 'production', seed },
      name: `${seed}-${type}-${i}`,
      instance_type: type === 'aws_instance' ? 't3.micro' : undefined,
      arn: `arn:aws:${type}:eu-west-1:111122223333:${seed}/${i}`,
    };
    resourceChanges.push({
      address,
      module_address: moduleAddress,
      mode: 'managed',
      type,
      name: `r${i}`,
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: [action],
        before:
          action === 'create' ? null : { ...after, name: `${after.name}-old` },
        after,
        before_sensitive: action === 'create' ? false : {},
        after_sensitive: { tags: {} },
      },
    });
  }
  return {
    format_version: '1.2',
    terraform_version: '1.9.8',
    resource_changes: resourceChanges,
    output_changes: {
      endpoint: { actions: [action], after: `https://${seed}.example.com` },
    },
    errored: false,
  };
}
