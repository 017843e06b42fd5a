import { Box, Text } from 'ink';
import { keymap } from './keymap';
import { Field, Pane } from './pane';

/** The keys, as `?` shows them; any key closes it. */
export function Help({ width, height }: { width: number; height: number }) {
  return (
    <Pane title="Keys (any key closes this)" width={width} height={height} focused>
      {keymap.map((group, i) => (
        <Box key={group.title} flexDirection="column" marginTop={i ? 1 : 0} flexShrink={0}>
          <Text bold>{group.title}</Text>
          {group.keys.map(([keys, what]) => (
            <Field key={keys} label={`  ${keys}`} width={26}>
              {what}
            </Field>
          ))}
        </Box>
      ))}
    </Pane>
  );
}
