# Sourced by ./forager and ./test: sets JAVA_HOME to a JDK of version 21 or newer, and
# FORAGER_JAVA_VERSION to its major version.
# Tries $JAVA_HOME, the javac on the PATH, then the JDKs under /usr/lib/jvm (newest first).
# Bash builtins only on the usual path (a $JAVA_HOME or a javac on the PATH with a release file): each
# process a launcher starts costs about 10 ms of wall time here, and it took a dozen, about 0.13 s of
# every command (issue 15; docs/benchmarks.md, session 44).

# Sets _forager_version to the major version of the JDK at $1, or to nothing: the JDK's release file
# says it without starting a JVM (each start cost about 0.15 s of wall time and 0.25 s of CPU, and every
# command started two to four: issue 15). "1.8.0_402" is 8. Sets _forager_libc to the C library the
# JDK was built for, as its release file says ("gnu", "musl"), or to nothing.
_forager_read_java_version() {
  _forager_version=""
  _forager_libc=""
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  local line
  if [ -f "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=*)
          line="${line#JAVA_VERSION=}"
          line="${line//\"/}"
          line="${line#1.}"
          _forager_version="${line%%[!0-9]*}" ;;
        LIBC=*)
          line="${line#LIBC=}"
          line="${line%$'\r'}"
          _forager_libc="${line//\"/}" ;;
      esac
    done < "$1/release"
  fi
  if [ -z "$_forager_version" ]; then
    _forager_version="$("$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1)"
  fi
  return 0
}

# Takes the JDK at $1 (_forager_jdk) when it is of version 21 or newer; returns 1 when it is not.
_forager_take_if_recent() {
  _forager_read_java_version "$1"
  [ -n "$_forager_version" ] && [ "$_forager_version" -ge 21 ] || return 1
  _forager_jdk="$1"
}

# Sets _forager_jdk to the first JDK of version 21 or newer (and _forager_version to its version);
# returns 1 when there is none. The candidates after $JAVA_HOME are looked for only when it is not one.
_forager_find_jdk() {
  local candidate javac_path
  _forager_jdk=""
  if [ -n "${JAVA_HOME:-}" ] && _forager_take_if_recent "${JAVA_HOME%/}"; then return 0; fi
  javac_path="$(command -v javac 2>/dev/null || true)"
  if [ -n "$javac_path" ]; then
    candidate="$(readlink -f "$javac_path" 2>/dev/null || echo "$javac_path")"
    if _forager_take_if_recent "${candidate%/bin/javac}"; then return 0; fi
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    if _forager_take_if_recent "${candidate%/}"; then return 0; fi
  done
  return 1
}

if ! _forager_find_jdk; then
  echo "forager: no JDK 21 or newer found (looked at \$JAVA_HOME, the PATH and /usr/lib/jvm);" \
    "install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21+, or set JAVA_HOME" >&2
  exit 1
fi
export JAVA_HOME="$_forager_jdk"
export FORAGER_JAVA_VERSION="$_forager_version"
# RocksJava names its native library by the C library, and to learn it ran `ldd /usr/bin/env | grep
# musl` through a shell at every start of the store (five processes, about 80 ms on the thread that
# loads it). Its own variable tells it instead, from the JDK's release file; not when already set.
if [ -z "${ROCKSDB_MUSL_LIBC+set}" ]; then
  case "$_forager_libc" in
    gnu) export ROCKSDB_MUSL_LIBC=false ;;
    musl) export ROCKSDB_MUSL_LIBC=true ;;
  esac
fi
# Maven 3.8 on JDK 24+ warns about sun.misc.Unsafe on every run; the warning is Maven's, not ours.
if [ "$FORAGER_JAVA_VERSION" -ge 24 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"
fi
