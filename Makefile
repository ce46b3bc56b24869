# onthemap — `make run` builds and starts the app on its built-in server; `make test` installs
# what the tests need and runs them all. Both install missing Debian packages first: `make run`
# only what the build and the app need, `make test` the rest too (tmux, PostgreSQL, lintian…).

SWIFT ?= swift
# libcurl4-openssl-dev: its headers for CCurl (libcurl itself is loaded on the first https://).
APT_PACKAGES := git pkg-config libsqlite3-dev libncurses-dev libqrencode-dev libcurl4-openssl-dev nettle-dev libpng-dev libpq-dev
TEST_APT_PACKAGES = tmux python3 postgresql lintian man-db dpkg-dev openssl libchafa0 libsixel-bin $(TERMINAL_APT_PACKAGES)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN = $(shell $(SWIFT) build --show-bin-path)

.PHONY: all deps test-deps build run test test-packages test-terminals release install deb bench-install bench bench-tui bench-server bench-live soak fuzz data clean

all: build

## deps: install the Debian packages the build and the app need, when missing.
deps:
	@$(call install_missing,$(APT_PACKAGES))

## test-deps: and those only the tests need (the end-to-end suite's tmux, the PostgreSQL suite's
## server, the packaging test's dpkg-dev, lintian and man-db, the TLS tests' openssl, the real
## terminals, Xvfb, xdotool, ImageMagick and tesseract of Tests/terminals).
test-deps: deps
	@$(call install_missing,$(TEST_APT_PACKAGES))

# Installs the Debian packages in $(1) that are missing. "Installed" is dpkg's own status
# "install ok installed": `dpkg -s` also succeeds for a removed package whose configuration
# files are still there ("deinstall ok config-files").
define install_missing
missing=""; for package in $(1); do \
	[ "$$(dpkg-query -W -f='$${Status}' $$package 2>/dev/null)" = "install ok installed" ] || \
		missing="$$missing $$package"; \
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
## on a throwaway PostgreSQL cluster), then the end-to-end suite, then the packaging test and,
## beside it, the release app in real terminals (Tests/terminals).
test: test-deps
	bash scripts/test-all.sh "$(SWIFT)" "$(MAKE)" "$(BIN)" "$(RELEASE_LOG)" "$(RELEASE_SCRATCH)"

## test-packages: `make deb`, then lintian (no errors) and the unpacked programs, man pages and
## completions (scripts/test-packages.sh).
test-packages: deb
	@$(call install_missing,lintian man-db)
	bash scripts/test-packages.sh "$(DEB_DIR)"

## test-terminals: the installed app (the release build) in real terminals under Xvfb — xterm
## -ti vt340, kitty, mlterm, konsole, alacritty, and xterm with its Sixel limit raised, each on a
## dark and a light background — read from
## screenshots, pixels and OCR (Tests/terminals/README.md); `make test` runs it beside the
## packaging test. A terminal that cannot start is SKIP, and a SKIP fails `make test`.
TERMINAL_APT_PACKAGES := xvfb x11-apps x11-utils x11-xserver-utils xdotool imagemagick tesseract-ocr tesseract-ocr-eng tmux \
	fonts-dejavu-core ncurses-term libgl1-mesa-dri xterm kitty mlterm alacritty konsole
test-terminals: release
	@$(call install_missing,$(TERMINAL_APT_PACKAGES))
	python3 Tests/terminals/real_terminals.py "$(RELEASE_BIN)/onthemap" --jobs 3

## release: the release build that `make install` and `make deb` ship and every benchmark
## measures — both executables, the Swift runtime and Foundation linked statically so that they
## run where no Swift toolchain is installed. RELEASE_FLAGS is the one release configuration: every release build here uses
## exactly these flags, so they all share .build-release/release and none rebuilds what another
## built (a build with other flags into the same folder would rebuild everything, about 8
## minutes). Its own scratch folder lets it run beside a debug build (`make test` does).
RELEASE_SCRATCH = .build-release
RELEASE_LOG = $(RELEASE_SCRATCH)/make-release.log
RELEASE_FLAGS = -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH)
export RELEASE_FLAGS
release: deps
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

## bench-install: `make install` into $(BENCH_ROOT), the files `make deb` packages: what
## bench-tui and bench-server measure.
BENCH_ROOT = .build-install
bench-install:
	$(MAKE) install DESTDIR="$(CURDIR)/$(BENCH_ROOT)" PREFIX=/usr

## bench: the map engine's and the offline geocoder's timings and memory (Benchmarks.md, "Map and
## geocoder"): onthemap-bench, built with RELEASE_FLAGS next to the shipped executables, so that
## it runs the same compiled WorldMap and Geo modules and rebuilds none of them.
bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product onthemap-bench
	"$(RELEASE_BIN)/onthemap-bench"

## bench-tui: the terminal app's start, login, frame and memory figures (Benchmarks.md, "Terminal
## app") for the installed binary, on the built-in server and against a separate one.
bench-tui: bench-install
	@$(call install_missing,python3)
	python3 scripts/bench-tui.py "$(BENCH_ROOT)/usr/bin"
	python3 scripts/bench-tui.py "$(BENCH_ROOT)/usr/bin" --external

## bench-server: the installed onthemap-server under wrk against Datasette and nginx on 1,000,000
## rows, and Hummingbird alone on the same bytes (Benchmarks.md, "Server load").
bench-server: bench-install
	$(SWIFT) build $(RELEASE_FLAGS) --product onthemap-bench-http
	bash scripts/bench-server.sh "$(BENCH_ROOT)/usr/bin/onthemap-server" "$(RELEASE_BIN)/onthemap-bench-http"

## bench-live: LiveQuery from a POST's 201 to the event at 1,000 subscribers, and the server's
## memory with 10,000 idle subscribers (Benchmarks.md, "Live class map"), on the installed server.
bench-live: bench-install
	@$(call install_missing,python3)
	python3 scripts/bench-live.py "$(BENCH_ROOT)/usr/bin"

## soak: ten minutes of mixed reads and writes against a real server; 0 errors, memory sampled.
soak: build
	@$(call install_missing,python3)
	python3 scripts/soak.py "$(BIN)" --minutes 10 --workers 4

## fuzz: schemathesis against a real server, from the OpenAPI document (PyPI, in .build-venv).
fuzz: deps
	bash scripts/fuzz.sh

## data: regenerate the bundled map, gazetteer and label-font files and the detailed map from their pinned inputs.
data:
	bash scripts/data/build.sh
	bash scripts/data/build_font.sh
	bash scripts/data/build_detail.sh

clean:
	rm -rf .build
