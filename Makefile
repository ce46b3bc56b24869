# onthemap — `make run` builds and starts the app on its built-in server; `make test` installs
# what the tests need and runs them all. Both install missing Debian packages first.

SWIFT ?= swift
APT_PACKAGES := git pkg-config libsqlite3-dev libncurses-dev libqrencode-dev tmux python3 postgresql
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN = $(shell $(SWIFT) build --show-bin-path)

.PHONY: all deps build run test test-packages release install deb bench bench-tui bench-server soak fuzz data clean

all: build

## deps: install the Debian packages the build and the tests need, when missing.
deps:
	@$(call install_missing,$(APT_PACKAGES))

# Installs the Debian packages in $(1) that are missing.
define install_missing
missing=""; for package in $(1); do \
	dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
done; \
if [ -n "$$missing" ]; then \
	echo "Installing Debian packages:$$missing"; \
	$(SUDO) apt-get update -qq && \
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef

build: deps
	$(SWIFT) build

## run: the app on the built-in server with a demo class. Builds the onthemap product alone, which
## links no PostgreSQL, TLS or crypto library (onthemap-server, built by `make build`, does).
run: deps
	$(SWIFT) build --product onthemap
	"$(BIN)/onthemap"

## test: unit and integration tests (real servers on loopback; the storage suite on SQLite and
## on a throwaway PostgreSQL cluster), then the end-to-end suite, then the packaging test.
test: deps
	python3 scripts/openapi/generate.py --check
	python3 scripts/check-architecture.py
	$(SWIFT) build --build-tests
	ONTHEMAP_TEST_REQUIRE_POSTGRES=1 bash scripts/with-postgres.sh bash scripts/swift-test-passes.sh $(SWIFT)
	bash Tests/e2e/run.sh "$(BIN)"
	$(MAKE) test-packages

## test-packages: `make deb`, then lintian (no errors) and the unpacked programs, man pages and
## completions (scripts/test-packages.sh).
test-packages: deb
	@$(call install_missing,lintian man-db)
	bash scripts/test-packages.sh "$(DEB_DIR)"

## bench: release-built benchmarks; figures go to Docs/Benchmarks.md.
bench: deps
	bash scripts/bench.sh

## release: the release build that `make install` installs and `make bench-tui` measures — both
## executables, the Swift runtime and Foundation linked statically so that they run where no
## Swift toolchain is installed (FoundationNetworking's static link needs libcurl's -dev symlink).
RELEASE_FLAGS = -c release --static-swift-stdlib
release: deps
	@$(call install_missing,libcurl4-openssl-dev)
	$(SWIFT) build $(RELEASE_FLAGS) --product onthemap
	$(SWIFT) build $(RELEASE_FLAGS) --product onthemap-server

## install: the release executables into $(DESTDIR)$(PREFIX)/bin, their man pages (generated
## from the argument parser) into share/man/man1, bash/zsh/fish completions into share/, and the
## data attribution into share/doc/onthemap (the map and gazetteer are compiled into the binaries).
PREFIX ?= /usr/local
RELEASE_BIN = $(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)
install: release
	bash scripts/install-files.sh "$(RELEASE_BIN)" "$(DESTDIR)" "$(PREFIX)"

## deb: the onthemap and onthemap-server Debian packages (dpkg-deb), into $(DEB_DIR).
DEB_DIR ?= .build/deb
deb: release
	@$(call install_missing,dpkg-dev)
	bash scripts/deb.sh "$(RELEASE_BIN)" "$(DEB_DIR)"

## bench-tui: the terminal app's start, login, frame and memory figures (Benchmarks.md, "Terminal
## app") for the binary `make install` installs, on the built-in server and against a separate one.
BENCH_ROOT = .build-install
bench-tui:
	$(MAKE) install DESTDIR="$(CURDIR)/$(BENCH_ROOT)" PREFIX=/usr
	python3 scripts/bench-tui.py "$(BENCH_ROOT)/usr/bin"
	python3 scripts/bench-tui.py "$(BENCH_ROOT)/usr/bin" --external

## bench-server: the server under wrk against Datasette and nginx on 1,000,000 rows.
bench-server: deps
	bash scripts/bench-server.sh

## soak: ten minutes of mixed reads and writes against a real server; 0 errors, memory sampled.
soak: build
	python3 scripts/soak.py "$(BIN)" --minutes 10 --workers 4

## fuzz: schemathesis against a real server, from the OpenAPI document (PyPI, in .build-venv).
fuzz: deps
	bash scripts/fuzz.sh

## data: regenerate the bundled map and gazetteer files from their pinned inputs.
data:
	bash scripts/data/build.sh

clean:
	rm -rf .build
