# Sourced by ./forager and ./test: sets JAVA_HOME to a JDK of version 21 or newer.
# Tries $JAVA_HOME, the java on the PATH, then the JDKs under /usr/lib/jvm (newest first).

_forager_java_version() { # major version of the JDK at $1, or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1
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
if [ "$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')" -ge 24 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
