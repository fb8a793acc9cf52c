import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';

/**
 * Short values as a list of chips, each kept on one line (in a comma-separated list a table
 * broke "eu-west-1" at its hyphens); the chips wrap between each other. `title` is said on hover.
 */
export const ChipList = ({
  label,
  items,
}: {
  /** The list's accessible name: "Environments of Payments". */
  label: string;
  items: { key: string; label: string; title?: string }[];
}) => (
  <Box
    component="ul"
    aria-label={label}
    display="flex"
    flexWrap="wrap"
    margin={0}
    padding={0}
    style={{ gap: 4, listStyle: 'none' }}
  >
    {items.map(item => (
      <li key={item.key}>
        <Chip
          size="small"
          label={item.label}
          title={item.title}
          style={{ whiteSpace: 'nowrap', margin: 0 }}
        />
      </li>
    ))}
  </Box>
);
