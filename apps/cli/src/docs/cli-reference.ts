import type { Command } from 'commander';
import { createProgram } from '../program';

const helpWidth = 100;

/** Every command of the tree, depth first, in the order they were declared. */
function commandsOf(command: Command): Command[] {
  return [command, ...command.commands.filter((c) => c.name() !== 'help').flatMap(commandsOf)];
}

const fullName = (command: Command): string => {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
};

/** The help commander prints for `command`, examples included, at a fixed width. */
function helpOf(command: Command, captured: { text: string }): string {
  captured.text = '';
  command.outputHelp();
  return captured.text.trimEnd();
}

/**
 * The CLI reference in Markdown (docs/cli-reference.md), generated from the commander program
 * so it cannot drift from the flags; `npm run docs` rewrites it and a test checks it is fresh.
 */
export function renderCliReference(): string {
  const captured = { text: '' };
  const program = createProgram({ stdout: (s) => void (captured.text += s), stderr: () => {}, env: {}, cwd: '/' });
  const commands = commandsOf(program);
  for (const command of commands) command.configureHelp({ helpWidth });
  const lines = [
    '# reelbase CLI reference',
    '',
    'Generated from the commander program (`npm run docs`); do not edit by hand.',
    '',
    ...commands.slice(1).map((c) => `- [\`${fullName(c)}\`](#${fullName(c).replace(/ /g, '-')}) — ${c.description()}`),
    '',
  ];
  for (const command of commands) {
    lines.push(`## ${fullName(command)}`, '', '```text', helpOf(command, captured), '```', '');
  }
  return lines.join('\n');
}
