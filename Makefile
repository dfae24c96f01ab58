# Quire — the two commands a fresh machine needs are `make demo` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
APT_PACKAGES := libvips-dev libvips-tools pkg-config
OUT ?= out

.PHONY: deps build release demo test bench bench-layout clean accuracy-deskew

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

## bench-layout: median cost of one frame's visible-item query per layout, 10^3…10^6 items.
bench-layout:
	$(SWIFT) run -c release quire-bench-layout

## accuracy-deskew: mean and worst skew error and ms/page on ../shared/data scans (release build).
accuracy-deskew: deps
	$(SWIFT) build -c release --product quire-deskew-score
	$$($(SWIFT) build -c release --show-bin-path)/quire-deskew-score $(DESKEW_SCORE_ARGS)

clean:
	rm -rf .build $(OUT)
