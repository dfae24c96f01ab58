# Quire — the two commands a fresh machine needs are `make demo` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
APT_PACKAGES := libvips-dev libvips-tools pkg-config
OUT ?= out

.PHONY: deps build release demo test bench bench-quick bench-venv bench-layout clean

## deps: install libvips (and pkg-config, the vips CLI used as a test oracle) when missing.
deps:
	@if pkg-config --exists vips 2>/dev/null && command -v vips >/dev/null; then \
	  echo "libvips $$(pkg-config --modversion vips) found"; \
	else \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing $(APT_PACKAGES) with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES); \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product quire

## demo: process the bundled samples into $(OUT)/.
demo: release
	rm -rf $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/quire process Samples/scans -o $(OUT); \
	  status=$$?; \
	  echo; echo "Results are in $(OUT)/: pages/, previews/, thumbs/ and layout.json"; \
	  exit $$([ $$status -le 1 ] && echo 0 || echo $$status)

## test: the whole suite (pure geometry/layout tests, libvips bridge, pipeline, CLI).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench: throughput and memory of `quire process` against the floor and the peers, one table
## (Benchmarks/README.md). BENCH_ARGS passes options, e.g. BENCH_ARGS="--captures DIR" or
## "--stand-in"; QUIRE_BIN points at another quire binary.
BENCH_ARGS ?=
bench: deps bench-venv
	$(SWIFT) build -c release --product quire
	$(SWIFT) build -c release --product quire-floor
	python3 Benchmarks/run_bench.py $(BENCH_ARGS)

## bench-quick: the same on 10 captures, 2 runs, without the 1000-page memory check.
bench-quick: deps bench-venv
	$(SWIFT) build -c release --product quire
	$(SWIFT) build -c release --product quire-floor
	python3 Benchmarks/run_bench.py --quick $(BENCH_ARGS)

## bench-venv: the Python peers (numpy, Pillow, OpenCV) in .venv, installed when missing.
bench-venv:
	@bash Benchmarks/setup_venv.sh .venv

clean:
	rm -rf .build $(OUT)
