#!/usr/bin/env python3
# clang-tidy over the given sources, each file checked only when something it reads changed.
#
# A file's key is the SHA-256 of everything its result depends on: clang-tidy's version, the
# .clang-tidy file, the file's compile flags and its preprocessed text with comments kept (so a
# NOLINT, a header it includes or a macro it sees changing makes a new key). The source folder's
# path is written as "@ROOT@" in the flags and the text before hashing, so a clone elsewhere
# finds the results of this one. A file whose check found nothing leaves an empty file named by
# its key in the cache folder; a file with findings leaves nothing and is checked again next time.
#
# Qt's and QCustomPlot's headers are most of what a chart or window source makes clang-tidy
# read. Sources whose preprocessed text includes qcustomplot.h are checked with those headers
# precompiled (clang's -include-pch), one precompiled header per set of compile flags, built
# first. The checks still see every declaration (a precompiled header is the same AST, read
# instead of parsed); the header filter only reports the project's headers, which are never
# precompiled. A source without QCustomPlot is checked plainly: the precompiled header would
# make it read more than it includes (widgets/chart/dotsize.cpp: 11 s plain, 22 s with it).
#
# Preprocessing every file to find its key took about a minute of a run that checks nothing, so a
# file's key is also remembered the way ccache's direct mode does: a manifest named by the hash
# of the versions (clang-tidy's, the compiler's), .clang-tidy, the flags and the file's own text
# lists every file the preprocessor read (from its line markers) with the SHA-256 of each. When
# each still has its hash, the key is the one remembered and nothing is preprocessed. What a
# manifest cannot see, as in ccache, is a new header that the include path would now find before
# the one it names.
#
# The largest files are checked first, so that two workers do not end on one long file each
# after the rest are done (the clang static analyzer takes over a minute on some chart files).
#
# Usage: tidy-cached.py BUILD_DIR CACHE_DIR JOBS FILE...
# Prints clang-tidy's findings; exits 1 when there are any, 0 when every file is clean.
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

NOISE = re.compile(r'^(\d+ warnings? generated|Suppressed \d+ warnings|Use -header-filter)')
FINDING = re.compile(r': (warning|error):|Error while processing')
PCH_HEADERS = ['qcustomplot.h', 'QtWidgets/QtWidgets']
CACHE_DAYS = 30  # entries unused for this long are removed


def compile_arguments(entry):
    """The compile command's arguments without the compiler, -o, -c and the file itself."""
    args = entry['arguments'] if 'arguments' in entry else shlex.split(entry['command'])
    out, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg in ('-o', '-c'):
            skip = True
        elif arg not in ('-MD',) and not arg.startswith(('-MT', '-MF')):
            out.append(arg)
    return args[0], out


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def uses_widgets(args):
    return any(a.endswith('/QtWidgets') for a in args)


def build_pch(compiler, args, cwd, path):
    header = path[:-4] + '.h'
    with open(header, 'w') as f:
        f.writelines('#include <%s>\n' % h for h in PCH_HEADERS)
    result = run([compiler] + args + ['-x', 'c++-header', header, '-Xclang', '-emit-pch',
                                      '-Xclang', '-fno-pch-timestamp', '-o', path], cwd)
    return path if result.returncode == 0 else None


def main():
    build_dir, cache_dir, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    files = [os.path.abspath(f) for f in sys.argv[4:]]
    root = os.getcwd()
    build_dir = os.path.abspath(build_dir)
    os.makedirs(cache_dir, exist_ok=True)
    database = {os.path.abspath(os.path.join(e['directory'], e['file'])): e
                for e in json.load(open(os.path.join(build_dir, 'compile_commands.json')))}
    version = run(['clang-tidy', '--version'], root).stdout
    config = open(os.path.join(root, '.clang-tidy'), 'rb').read()
    base = hashlib.sha256(version + b'\0' + config + b'\0')

    manifests = os.path.join(cache_dir, 'manifests')
    os.makedirs(manifests, exist_ok=True)
    hashes = {}

    def file_hash(name):
        if name not in hashes:
            try:
                with open(name, 'rb') as f:
                    hashes[name] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                hashes[name] = None
        return hashes[name]

    versions = {}

    def compiler_version(compiler):
        if compiler not in versions:
            versions[compiler] = run([compiler, '--version'], root).stdout
        return versions[compiler]

    def portable(name):
        return name.replace(root, '@ROOT@', 1) if name.startswith(root + '/') else name

    def remembered(manifest):
        try:
            with open(manifest) as f:
                known = json.load(f)
        except (OSError, ValueError):
            return None
        for name, digest in known['reads']:
            if file_hash(name.replace('@ROOT@', root, 1)) != digest:
                return None
        os.utime(manifest)
        return known['key'], '', known['qcustomplot'], known['size']

    def key(path):
        entry = database.get(path)
        if entry is None:
            return None, 'tidy-cached: %s is not in %s/compile_commands.json\n' % (path, build_dir), False, 0
        compiler, args = compile_arguments(entry)
        flags = ' '.join(args).replace(root, '@ROOT@').encode() + b'\0' + portable(path).encode() + b'\0'
        direct = base.copy()
        direct.update(compiler_version(compiler) + b'\0' + flags)
        direct.update((file_hash(path) or '').encode())
        manifest = os.path.join(manifests, direct.hexdigest())
        known = remembered(manifest)
        if known:
            return known
        pre = run([compiler] + args + ['-E', '-C', path], entry['directory'])
        if pre.returncode != 0:
            return None, '', False, 0  # clang-tidy reports the error itself
        h = base.copy()
        h.update(flags)
        h.update(pre.stdout.replace(root.encode(), b'@ROOT@'))
        result = h.hexdigest(), '', b'/qcustomplot.h"' in pre.stdout, len(pre.stdout)
        reads = set(re.findall(rb'^# \d+ "([^"<][^"]*)"', pre.stdout, re.MULTILINE))
        names = sorted(os.path.normpath(os.path.join(entry['directory'], r.decode())) for r in reads)
        digests = [(portable(n), file_hash(n)) for n in names]
        if all(d for _, d in digests):
            temporary = '%s.%d.tmp' % (manifest, os.getpid())  # another clone may lint too
            with open(temporary, 'w') as f:
                json.dump({'reads': digests, 'key': result[0], 'qcustomplot': result[2],
                           'size': result[3]}, f)
            os.replace(temporary, manifest)
        return result

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        keys = dict(zip(files, pool.map(key, files)))
    messages = [k[1] for k in keys.values() if k[1]]
    todo = [f for f in files if not (keys[f][0] and os.path.exists(os.path.join(cache_dir, keys[f][0])))]
    todo.sort(key=lambda f: -keys[f][3])
    for f in files:
        if f not in todo:
            os.utime(os.path.join(cache_dir, keys[f][0]))
    print('lint: clang-tidy on %d of %d files (%d unchanged since a clean check)'
          % (len(todo), len(files), len(files) - len(todo)), flush=True)

    # One precompiled header per distinct set of flags among the files that use QCustomPlot.
    pch_of_flags = {}
    pch_dir = os.path.join(build_dir, 'tidy-pch')
    os.makedirs(pch_dir, exist_ok=True)
    for f in todo:
        entry = database.get(f)
        if entry and keys[f][2]:
            compiler, args = compile_arguments(entry)
            if uses_widgets(args):
                flags = tuple(args)
                if flags not in pch_of_flags:
                    name = 'pch%d.pch' % len(pch_of_flags)
                    pch_of_flags[flags] = (compiler, list(args), entry['directory'],
                                           os.path.join(pch_dir, name))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        built = dict(zip(pch_of_flags, pool.map(lambda v: build_pch(*v), pch_of_flags.values())))

    def tidy(path, extra):
        result = run(['clang-tidy', '-p', build_dir, '--quiet'] + extra + [path], root)
        text = '\n'.join(l for l in result.stdout.decode(errors='replace').splitlines()
                         if not NOISE.match(l))
        return not FINDING.search(text) and result.returncode == 0, text

    def check(path):
        start = time.monotonic()
        clean, text = check_file(path)
        return clean, text, time.monotonic() - start, path

    def check_file(path):
        extra = []
        entry = database.get(path)
        if entry and keys[path][2]:
            pch = built.get(tuple(compile_arguments(entry)[1]))
            if pch:
                extra = ['--extra-arg=-include-pch', '--extra-arg=' + pch]
        clean, text = tidy(path, extra)
        if not clean and extra:
            clean, text = tidy(path, [])  # the findings as the plain compile reports them
        if clean and keys[path][0]:
            open(os.path.join(cache_dir, keys[path][0]), 'w').close()
        return clean, text

    failed = bool(messages)
    sys.stdout.write(''.join(messages))
    durations = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for clean, text, seconds, path in pool.map(check, todo):
            if text.strip():
                print(text, flush=True)
            failed = failed or not clean
            durations.append((seconds, os.path.relpath(path, root)))
    # Where the time went (CI's log): the slowest files and the total.
    if durations:
        durations.sort(reverse=True)
        print('lint: clang-tidy took %.0f s of work; slowest: %s' % (
            sum(d for d, _ in durations),
            ', '.join('%s %.0f s' % (name, d) for d, name in durations[:5])), flush=True)

    cutoff = time.time() - CACHE_DAYS * 86400
    for folder in (cache_dir, manifests):
        for name in os.listdir(folder):
            entry = os.path.join(folder, name)
            if os.path.isfile(entry) and os.path.getmtime(entry) < cutoff:
                os.remove(entry)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
