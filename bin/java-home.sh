# Sourced by ./forager and ./test: sets JAVA_HOME to a JDK of version 21 or newer.
# Tries $JAVA_HOME, the java on the PATH, then the JDKs under /usr/lib/jvm (newest first).

_forager_java_version() { # major version of the JDK at $1, or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  # The JDK's release file says it without starting a JVM (each start cost about 0.15 s of wall time
  # and 0.25 s of CPU, and every command started two to four: issue 15). "1.8.0_402" is 8.
  local version=""
  if [ -f "$1/release" ]; then
    version="$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$1/release" | head -n 1)"
  fi
  if [ -z "$version" ]; then
    version="$("$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1)"
  fi
  echo "$version"
}

_forager_find_jdk() {
  local candidate version
  for candidate in "${JAVA_HOME:-}" \
      "$(dirname "$(dirname "$(readlink -f "$(command -v javac 2>/dev/null || echo /nonexistent)")")")" \
      $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    [ -n "$candidate" ] || continue
    candidate="${candidate%/}"
    version="$(_forager_java_version "$candidate")"
    if [ -n "$version" ] && [ "$version" -ge 21 ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if ! JAVA_HOME="$(_forager_find_jdk)"; then
  echo "forager: no JDK 21 or newer found (looked at \$JAVA_HOME, the PATH and /usr/lib/jvm);" \
    "install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21+, or set JAVA_HOME" >&2
  exit 1
fi
export JAVA_HOME
# Maven 3.8 on JDK 24+ warns about sun.misc.Unsafe on every run; the warning is Maven's, not ours.
if [ "$(_forager_java_version "$JAVA_HOME")" -ge 24 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
