import { Box, Text } from 'ink';
import type { ProgressSnapshot } from '../batch/progress';
import { formatCounts, formatWaiting, percentOf } from '../render/progress';

/** A progress bar for batch work: bar and percentage, counts with rate and ETA, and any back-off. */
export function BatchProgress({ snapshot, width = 30 }: { snapshot: ProgressSnapshot; width?: number }) {
  const percent = percentOf(snapshot);
  const filled = Math.round((percent * width) / 100);
  return (
    <Box flexDirection="column">
      <Box gap={1}>
        <Text>
          <Text color={snapshot.failed ? 'yellow' : 'green'}>{'█'.repeat(filled)}</Text>
          <Text dimColor>{'░'.repeat(width - filled)}</Text>
        </Text>
        <Text bold>{`${percent}%`}</Text>
        <Text>{snapshot.label}</Text>
      </Box>
      <Text color={snapshot.failed ? 'red' : undefined}>{formatCounts(snapshot)}</Text>
      {snapshot.waiting && <Text color="yellow">{formatWaiting(snapshot.waiting)}</Text>}
    </Box>
  );
}
