import { parse, ScalarTag } from 'yaml';

/** CloudFormation's short-form intrinsic functions, read into their long form. */
const cloudFormationTags: ScalarTag[] = [
  { tag: '!Ref', resolve: (value: string) => ({ Ref: value }) },
  { tag: '!Sub', resolve: (value: string) => ({ 'Fn::Sub': value }) },
  {
    tag: '!GetAtt',
    resolve: (value: string) => ({ 'Fn::GetAtt': value.split('.') }),
  },
];

/** Parses a CloudFormation YAML template; unknown tags fail the parse. */
export function parseCloudFormation(text: string): any {
  return parse(text, {
    customTags: cloudFormationTags,
    strict: true,
    prettyErrors: true,
  });
}
