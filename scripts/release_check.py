#!/usr/bin/env python3
"""Checks a staged Maven Central bundle (scripts/release-check.sh builds it).

    release_check.py STAGING_DIR ROOT_POM

What Central checks on upload, and what this project promises besides: the published modules
and only those; for every artifact its .md5 and .sha1 (matching) and its .asc (a good gpg
signature, with the GNUPGHOME the caller set); the POM fields Central requires (on the POM or
its parent in the bundle); the BOM at the project's version; both platforms' natives in the jar.
Prints one line per failure and a summary; exits 1 on any failure.
"""
import hashlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

NS = {"m": "http://maven.apache.org/POM/4.0.0"}
GROUP_PATH = Path("dev/rpma")
# artifactId -> the classifiers/extensions it must publish
PUBLISHED = {
    "vertx-rpma-parent": {"pom"},
    "vertx-rpma-bom": {"pom"},
    "vertx-rpma": {"pom", "jar", "sources.jar", "javadoc.jar"},
    "vertx-rpma-kotlin": {"pom", "jar", "sources.jar", "javadoc.jar"},
    "vertx-rpma-testkit": {"pom", "jar", "sources.jar", "javadoc.jar"},
}
NEVER_PUBLISHED = {"vertx-rpma-examples", "vertx-rpma-bench"}
NATIVES = [f"META-INF/native/{platform}/{name}"
           for platform in ("linux-x86_64", "linux-aarch_64")
           for name in ("libvertx_rpma.so", "librpma.so.0", "librpma.copyright")]
REQUIRED_POM_FIELDS = ["name", "description", "url", "licenses/license/name",
                       "licenses/license/url", "developers/developer/name", "scm/url",
                       "scm/connection"]

failures = []
checks = 0


def check(ok, message):
    global checks
    checks += 1
    if not ok:
        failures.append(message)


def kind(artifact_id, file_name):
    """'pom', 'jar', 'sources.jar', ... of a deployed file name (release or timestamped)."""
    m = re.fullmatch(re.escape(artifact_id)
                     + r"-\d[\w.]*?(?:-\d{8}\.\d{6}-\d+|-SNAPSHOT)?(?:-([a-z]+))?\.(jar|pom)",
                     file_name)
    if not m:
        return None
    return f"{m.group(1)}.{m.group(2)}" if m.group(1) else m.group(2)


def text(pom, path):
    node = pom.find("m:" + "/m:".join(path.split("/")), NS)
    return node.text.strip() if node is not None and node.text else None


def main(staging, root_pom):
    version = text(ET.parse(root_pom).getroot(), "version")
    group = staging / GROUP_PATH
    present = {p.name for p in group.iterdir() if p.is_dir()} if group.is_dir() else set()
    for artifact_id in sorted(NEVER_PUBLISHED):
        check(artifact_id not in present, f"{artifact_id} is in the bundle: it must never be")
    check(present <= set(PUBLISHED), f"unexpected modules in the bundle: {present - set(PUBLISHED)}")
    poms = {}
    for artifact_id, wanted in PUBLISHED.items():
        version_dir = group / artifact_id / version
        files = sorted(version_dir.glob("*")) if version_dir.is_dir() else []
        kinds = {}
        for f in files:
            k = kind(artifact_id, f.name)
            if k:
                kinds.setdefault(k, []).append(f)
        check(wanted <= set(kinds), f"{artifact_id}: missing {sorted(wanted - set(kinds))}")
        for k, paths in kinds.items():
            newest = sorted(paths)[-1]  # a snapshot deployed twice keeps both
            check_files(newest)
            if k == "pom":
                poms[artifact_id] = ET.parse(newest).getroot()
            if artifact_id == "vertx-rpma" and k == "jar":
                with zipfile.ZipFile(newest) as jar:
                    names = set(jar.namelist())
                for entry in NATIVES + ["META-INF/LICENSE"]:
                    check(entry in names, f"{newest.name}: no {entry}")
    for artifact_id, pom in poms.items():
        parent_id = text(pom, "parent/artifactId")
        parent = poms.get(parent_id)
        for field in REQUIRED_POM_FIELDS:
            value = text(pom, field) or (text(parent, field) if parent is not None else None)
            check(bool(value), f"{artifact_id}: POM has no {field} (nor its parent)")
    bom = poms.get("vertx-rpma-bom")
    if bom is not None:
        check(text(bom, "version") == version,
              f"vertx-rpma-bom is at {text(bom, 'version')}, the project at {version}")
    print(f"release-check: {checks - len(failures)} of {checks} checks passed"
          f" ({staging}, version {version})")
    for f in failures:
        print("  FAILED: " + f)
    return 1 if failures else 0


def check_files(path):
    data = path.read_bytes()
    for algorithm in ("md5", "sha1"):
        sidecar = path.with_name(path.name + "." + algorithm)
        expected = hashlib.new(algorithm, data).hexdigest()
        check(sidecar.exists() and sidecar.read_text().split()[0] == expected,
              f"{path.name}: .{algorithm} missing or wrong")
    signature = path.with_name(path.name + ".asc")
    verified = signature.exists() and subprocess.run(
        ["gpg", "--batch", "--verify", str(signature), str(path)],
        capture_output=True).returncode == 0
    check(verified, f"{path.name}: .asc missing or not a good signature")


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
