import type { Client } from '@reelbase/http';
import { render } from 'ink';
import { App } from './app';
import { loadSession } from './session';

/** The terminal the TUI takes over. */
export interface Screen {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

// The alternate screen keeps the shell's scrollback as it was once the TUI quits.
const enterAlternateScreen = '\u001B[?1049h\u001B[H';
const leaveAlternateScreen = '\u001B[?1049l';

/**
 * Runs `reelbase tui` on a terminal until the user quits: it first checks who the client acts as
 * (a refused token is an error before the screen is taken over), then renders the app.
 */
export async function runTui(client: Client, screen: Screen, options: { apiVersion?: string } = {}): Promise<void> {
  const session = await loadSession(client, options.apiVersion);
  screen.stdout.write(enterAlternateScreen);
  try {
    const app = render(<App client={client} session={session} />, { stdin: screen.stdin, stdout: screen.stdout, exitOnCtrlC: true });
    await app.waitUntilExit();
  } finally {
    screen.stdout.write(leaveAlternateScreen);
  }
}
