# onthemap — `make run` builds and starts the app on its built-in server; `make test` installs
# what the tests need and runs them all. Both install missing Debian packages first.

SWIFT ?= swift
APT_PACKAGES := git pkg-config libsqlite3-dev libncurses-dev tmux python3 postgresql
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN = $(shell $(SWIFT) build --show-bin-path)

.PHONY: all deps build run test bench bench-tui bench-server soak fuzz data clean

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

## run: the app on the built-in server with a demo class.
run: build
	"$(BIN)/onthemap"

## test: unit and integration tests (real servers on loopback; the storage suite on SQLite and
## on a throwaway PostgreSQL cluster), then the end-to-end suite.
test: deps
	python3 scripts/openapi/generate.py --check
	$(SWIFT) build --build-tests
	ONTHEMAP_TEST_REQUIRE_POSTGRES=1 bash scripts/with-postgres.sh bash scripts/swift-test.sh $(SWIFT)
	bash Tests/e2e/run.sh "$(BIN)"

## bench: release-built benchmarks; figures go to Docs/Benchmarks.md.
bench: deps
	bash scripts/bench.sh

## bench-tui: the terminal app's start, login and memory figures (Benchmarks.md, "Terminal app"),
## on the built-in server and against a separate server. Release, in its own build folder
## (.build-tui): the Swift runtime and Foundation linked statically (fewer pages, no dynamic symbol
## lookups at start), and every package compiled with one section per function and per datum, so
## that the link order file (scripts/onthemap.order) can place the code that runs, and the
## conformance descriptors the runtime reads, together. The static link
## needs libcurl's development symlink (libcurl4-openssl-dev) for FoundationNetworking.
TUI_RELEASE = -c release --scratch-path .build-tui --static-swift-stdlib \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -Xllvm -Xswiftc -data-sections \
	-Xcc -ffunction-sections -Xcc -fdata-sections
bench-tui: deps
	@$(call install_missing,libcurl4-openssl-dev)
	$(SWIFT) build $(TUI_RELEASE) --product onthemap
	$(SWIFT) build $(TUI_RELEASE) --product onthemap-server
	python3 scripts/bench-tui.py .build-tui/release
	python3 scripts/bench-tui.py .build-tui/release --external

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
