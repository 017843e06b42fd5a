import { Box, Text } from 'ink';
import { sectionById } from './sections';
import { ownVideo, selectedVideo, type State } from './state';

/** What the keys do here: browsing the list, or acting on the open item. */
function hint(state: State): string {
  if (state.focus === 'list') return '? keys · Enter open · / search · n/p pages · Tab sections · q quit';
  const video = selectedVideo(state);
  if (video) return `? keys · Esc back · e edit${ownVideo(state, video) ? '' : ' · l like'} · w watch later · t/T tag · a album · c channel · d delete`;
  return '? keys · Esc back · ↑/↓ next item · Tab sections';
}

/** The search prompt's label: `Search videos` in a list, plain `Search` in the Search section. */
function searchLabel(state: State): string {
  const { id, title } = sectionById(state.section);
  return id === 'search' ? 'Search' : `Search ${title.toLowerCase()}`;
}

/** The line above the status line: a prompt, a confirmation, the last message, or a hint. */
export function Footer({ state, width }: { state: State; width: number }) {
  const { overlay, message } = state;
  let line;
  if (overlay?.kind === 'prompt') {
    const label = overlay.purpose === 'search' ? searchLabel(state) : 'Add tag';
    line = (
      <Text wrap="truncate-start">
        <Text bold color="cyan">{`${label}: `}</Text>
        {`${overlay.text}▌`}
        <Text dimColor>{`  Enter ${overlay.purpose === 'search' ? 'search' : 'add'} · Esc cancel`}</Text>
      </Text>
    );
  } else if (overlay?.kind === 'confirm') {
    line = <Text color="yellow" bold wrap="truncate-end">{`Delete “${overlay.name}”? It cannot be undone. y deletes, any other key keeps it.`}</Text>;
  } else if (message) {
    line = <Text color={message.error ? 'red' : 'green'} wrap="truncate-end">{message.text}</Text>;
  } else {
    line = <Text dimColor wrap="truncate-end">{hint(state)}</Text>;
  }
  return (
    <Box width={width} height={1} flexShrink={0} paddingX={1} overflow="hidden">
      {line}
    </Box>
  );
}
