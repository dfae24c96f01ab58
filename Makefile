# Quire — the two commands a fresh machine needs are `make demo` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Debian packages the build and the tests need; `make deps` installs whichever are missing.
# libvips (+ the vips CLI as a test oracle); python3-venv for the test tools in .venv;
# chromium + chromium-driver for the viewer's browser tests; qpdf + poppler-utils to check PDFs;
# zlib1g-dev compresses PDF streams; libtesseract-dev + libleptonica-dev (linked in process) read
# text (--ocr) and page orientation with the tesseract-ocr-eng and -osd data; -heb and -ara for the
# right-to-left OCR test (Tests/python/test_ocr_rtl.py); tesseract-ocr (the CLI) is the tests'
# oracle; unpaper is a peer; clang-format checks the C style (`make lint`); dpkg-dev, autoconf,
# automake, libtool, g++ and libarchive-dev fetch and build Quire's own libtesseract from Debian's
# source (`make tesseract-fast`).
APT_PACKAGES := libvips-dev libvips-tools pkg-config python3-venv chromium chromium-driver \
  qpdf poppler-utils zlib1g-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd \
  tesseract-ocr-heb tesseract-ocr-ara libtesseract-dev libleptonica-dev unpaper clang-format \
  dpkg-dev autoconf automake libtool g++ libarchive-dev
OUT ?= out

.PHONY: lint format deps tesseract-fast test-venv build release demo test test-fast docs docs-images bench bench-quick bench-venv bench-layout clean accuracy fit-verifier accuracy-deskew accuracy-real-photos accuracy-orientation viewer install dist fuzz fuzz-jpeg soak

## deps: install the Debian packages in APT_PACKAGES that are missing (apt-get; sudo when not root).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
	  | grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then \
	  echo "libvips $$(pkg-config --modversion vips) and the test tools found"; \
	else \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing" $$missing "with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

## tesseract-fast: Quire's own build of the libtesseract Debian installed, same version and
## patches, with link-time optimisation and -O3 (Scripts/tesseract_fast.sh; why: docs/install.md), cached
## in ~/.cache/quire/tesseract-VERSION-FLAGSHASH: built once (minutes), then reused at once; rebuilt
## when Debian's version changes. The targets that build quire link it beside their binaries
## ($ORIGIN is on their library path); when it cannot be built, one line says why and quire links
## Debian's libtesseract. TESSERACT=system skips it (and removes the link).
TESSERACT ?= fast
tesseract-fast:
	@bash Scripts/tesseract_fast.sh

# $(call link_tesseract,SWIFT BUILD OPTIONS): that build's bin folder gets a link to Quire's
# libtesseract (built first when missing), or loses a stale one when it cannot be built or
# TESSERACT=system; one line says which library its binaries load.
define link_tesseract
@bin=$$($(SWIFT) build $(1) --show-bin-path) && mkdir -p "$$bin" && \
  lib=$$([ "$(TESSERACT)" = system ] || bash Scripts/tesseract_fast.sh); \
  if [ -n "$$lib" ]; then ln -sfn "$$lib/libtesseract.so.5" "$$bin/libtesseract.so.5"; \
    echo "libtesseract: Quire's build, $$lib"; \
  else rm -f "$$bin/libtesseract.so.5"; echo "libtesseract: Debian's"; fi
endef

## test-venv: the Python test tools (pytest, Selenium, jsonschema, IIIF checkers) in .venv.
test-venv:
	@bash Tests/python/setup_venv.sh .venv

build: deps
	$(call link_tesseract,)
	$(SWIFT) build

release: deps
	$(call link_tesseract,-c release)
	$(SWIFT) build -c release --product quire

## demo: process the real documents in Samples/documents into $(OUT)/ (photos, scans, a PDF;
## with their text: --ocr, and a searchable PDF).
demo: release
	rm -rf $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/quire process Samples/documents -o $(OUT) --ocr --pdf; \
	  status=$$?; \
	  echo; echo "Results are in $(OUT)/: pages/, previews/, thumbs/, text/, pages.pdf, layout.json and the viewer index.html"; \
	  exit $$([ $$status -le 1 ] && echo 0 || echo $$status)

## test: the whole suite (pure geometry/layout tests, libvips bridge, pipeline, CLI, and the
## end-to-end Python tests, on two pytest-xdist workers when it is installed, one file each).
## The Python tests run beside the Swift tests' build and run (Tests/run-all.sh).
test: deps
	$(call link_tesseract,--scratch-path $(TEST_BUILD))
	SWIFT="$(SWIFT)" SCRATCH=$(TEST_BUILD) QUIRE_OPTIMIZE_TESTS=1 PYTEST_WORKERS="$(PYTEST_WORKERS)" bash Tests/run-all.sh

# `make test` builds in its own .build-test with QUIRE_OPTIMIZE_TESTS=1: Package.swift then compiles
# the pixel and geometry modules with -O inside the debug build (-enable-testing, checks kept), where
# -Onone pixel loops were most of the Swift tests' CPU (docs/benchmarks.md, "Test suite time"). Its own
# scratch path, so `swift build` in .build (-Onone, for the debugger) and `make test` never rebuild
# each other's modules.
TEST_BUILD := .build-test

# pytest-xdist's workers for `make test`: "auto" is two, one test file each (loadfile keeps a file's
# module fixtures on one worker; the shared OUT folders are made once per run under a lock), when
# xdist is in .venv (setup_venv.sh installs it); PYTEST_WORKERS= runs them one by one. In paired
# runs on this loaded 2-core machine two workers took about 10 % more CPU and finished first
# (docs/benchmarks.md, "Test suite time").
PYTEST_WORKERS ?= auto

## test-fast: the pure modules' tests alone (QuireGeometry, QuireLayout, QuirePageAnalysis and the shared test
## support; no libvips, no Foundation in the modules under test), from their own build in
## .build-fast: a minute or two from scratch, seconds after a change.
FAST_BUILD := .build-fast
test-fast:
	QUIRE_PURE_ONLY=1 $(SWIFT) build --build-tests --scratch-path $(FAST_BUILD)
	QUIRE_PURE_ONLY=1 $(SWIFT) test --skip-build --scratch-path $(FAST_BUILD)

## docs: the DocC API documentation of QuireGeometry, QuireLayout and QuireKit (swift-docc-plugin),
## one archive each under $(DOCS_OUT)/ (open with `docc preview`, or serve the static files).
DOCS_OUT ?= .build/docs
DOCS_TARGETS := QuireGeometry QuireLayout QuireKit
docs: deps
	@mkdir -p $(DOCS_OUT)
	@for t in $(DOCS_TARGETS); do \
	  $(SWIFT) package --disable-sandbox generate-documentation --target $$t \
	    --output-path $(DOCS_OUT)/$$t.doccarchive --transform-for-static-hosting || exit 1; \
	done; echo "API documentation in $(DOCS_OUT)/: $(foreach t,$(DOCS_TARGETS),$(t).doccarchive)"

## docs-images: the pictures of README.md and docs/, made by quire itself (Tools/docs-images.sh).
docs-images: release
	QUIRE=$$($(SWIFT) build -c release --show-bin-path)/quire bash Tools/docs-images.sh

## fuzz: the Swift fuzz suites (every suite named *Fuzz*) at 200,000 seeded iterations each
## (QUIRE_FUZZ_SEED=n replays another seed).
FUZZ_ITERATIONS ?= 200000
fuzz: deps
	$(SWIFT) build --build-tests
	QUIRE_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) $(SWIFT) test --skip-build --filter Fuzz

## fuzz-jpeg: libFuzzer with address and undefined-behaviour sanitizers on the 1/8-scale JPEG
## skipper against libjpeg alone (Tools/fuzz/README.md): builds into .build/fuzz, writes the
## seeds, replays Tools/fuzz/corpus, then fuzzes for FUZZ_JPEG_SECONDS (120; 1800 for a long run).
FUZZ_JPEG_SECONDS ?= 120
FUZZ_DIR := .build/fuzz
fuzz-jpeg:
	bash Tools/fuzz/build.sh $(FUZZ_DIR)
	rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus
	$(FUZZ_DIR)/make_seeds $(FUZZ_DIR)/seeds
	@for f in $$(ls Tools/accuracy/real-photos/*.jpg | awk 'NR % 13 == 1') \
	  $$(ls ../shared/data/synthetic/captures/*.jpg 2>/dev/null | head -8); do \
	  vipsthumbnail "$$f" -s 160 -o "$(CURDIR)/$(FUZZ_DIR)/seeds/small_$$(basename $$f .jpg).jpg[Q=80,strip]"; done
	vipsthumbnail Tools/accuracy/real-photos/$$(ls Tools/accuracy/real-photos | grep jpg | head -1) -s 200 \
	  -o "$(CURDIR)/$(FUZZ_DIR)/seeds/small_dri.jpg[Q=85,strip,restart_interval=2]"
	python3 Tools/fuzz/hostile_seeds.py $(FUZZ_DIR)/seeds $$(ls $(FUZZ_DIR)/seeds/*.jpg | head -10)
	$(FUZZ_DIR)/jpeg_skip_fuzz -runs=0 Tools/fuzz/corpus
	$(FUZZ_DIR)/jpeg_skip_fuzz -max_total_time=$(FUZZ_JPEG_SECONDS) -max_len=20000 -timeout=10 \
	  -rss_limit_mb=2048 -use_value_profile=1 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/ \
	  $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds Tools/fuzz/corpus

## soak: `quire layout --lines` under a seeded mix of valid, hostile and huge requests for
## SOAK_SECONDS (default 180), checking every reply and that RSS stays flat after warm-up.
SOAK_SECONDS ?= 180
soak: deps
	$(SWIFT) build --product quire
	python3 Tools/soak/layout_soak.py --quire $$($(SWIFT) build --show-bin-path)/quire --duration $(SOAK_SECONDS)

## bench-layout: median cost of one frame's visible-item query per layout, 10^3…10^6 items.
bench-layout:
	$(SWIFT) run -c release quire-bench-layout

## accuracy-deskew: mean and worst skew error and ms/page on ../shared/data scans (release build),
## then what `quire process` decides on the real skewed scans of Tools/accuracy/real-skew.tsv
## committed in Tools/accuracy/real-scans or found in ../shared/data (absent ones skipped).
accuracy-deskew: deps
	$(SWIFT) build -c release --product quire-deskew-score
	$$($(SWIFT) build -c release --show-bin-path)/quire-deskew-score $(DESKEW_SCORE_ARGS)
	$$($(SWIFT) build -c release --show-bin-path)/quire-deskew-score --real Tools/accuracy/real-skew.tsv

## accuracy-real-photos: stage the real-photo set (photos from REAL_PHOTOS, truth committed) for `make accuracy`.
accuracy-real-photos:
	@rm -rf $(ACCURACY_OUT)/real; if [ -d "$(REAL_PHOTOS)" ]; then mkdir -p $(ACCURACY_OUT)/real && \
	  cp Tools/accuracy/real/truth.json $(ACCURACY_OUT)/real/ && \
	  for f in $$(.venv/bin/python -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))))' Tools/accuracy/real/truth.json); do \
	    [ -f "$(REAL_PHOTOS)/$$f" ] && ln -sf "$$(cd "$(REAL_PHOTOS)" && pwd)/$$f" $(ACCURACY_OUT)/real/$$f || echo "note: real photo $$f missing from $(REAL_PHOTOS)"; done; \
	else echo "note: real-photo set absent ($(REAL_PHOTOS)); not scored. See Tools/accuracy/real/SOURCES.md to build it."; fi

## accuracy: border detection and deskew scored against ground truth, Quire and the classic
## OpenCV recipe in the same run, on ../shared/data/synthetic and on a generated set
## (Tools/accuracy/generate.py; numpy, Pillow and opencv-python-headless in .venv/ from PyPI),
## on the real photos kept in Tools/accuracy/real-photos, and on the ones that may not be
## redistributed in REAL_PHOTOS=dir when present (truth in Tools/accuracy/real/truth.json).
## The real photos are also scored per source: held-out sources first, then tuned-on (in-sample).
ACCURACY_OUT ?= bench-out/accuracy
ACCURACY_SEED ?= 7
SHARED_SYNTH := ../shared/data/synthetic
# Real phone photos that may not be redistributed (Tools/accuracy/real/SOURCES.md lists them; truth committed).
REAL_PHOTOS ?= ../shared/data/real-photos
accuracy: deps accuracy-real-photos
	$(SWIFT) build -c release --product QuireAccuracy
	@mkdir -p $(ACCURACY_OUT)
	@if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import numpy, PIL' 2>/dev/null; then \
	  python3 -m venv .venv && .venv/bin/pip install -q numpy pillow || echo "note: numpy/Pillow not installable: no generated set"; \
	fi
	@.venv/bin/python -c 'import cv2' 2>/dev/null || .venv/bin/pip install -q opencv-python-headless \
	  || echo "note: opencv-python-headless not installable: the OpenCV peer is skipped"
	@if [ ! -f $(ACCURACY_OUT)/generated/captures/truth.json ] && .venv/bin/python -c 'import numpy, PIL' 2>/dev/null; then \
	  .venv/bin/python Tools/accuracy/generate.py $(ACCURACY_OUT)/generated --seed $(ACCURACY_SEED); fi
	@sets=""; for d in $(SHARED_SYNTH)/captures $(ACCURACY_OUT)/generated/captures Tools/accuracy/real-photos $(ACCURACY_OUT)/real $(SHARED_SYNTH)/scans $(ACCURACY_OUT)/generated/scans; do \
	  [ -f $$d/truth.json ] && sets="$$sets $$d"; done; \
	peer=""; photos=""; for d in $$sets; do case $$d in *captures|*/real|*/real-photos) photos="$$photos $$d";; esac; done; \
	if .venv/bin/python -c 'import cv2' 2>/dev/null && [ -n "$$photos" ]; then \
	  .venv/bin/python Tools/accuracy/opencv_peer.py $(ACCURACY_OUT)/opencv.json $$photos && peer="--peer opencv=$(ACCURACY_OUT)/opencv.json"; \
	else echo "note: OpenCV peer skipped (opencv-python-headless unavailable)"; fi; \
	$$($(SWIFT) build -c release --show-bin-path)/QuireAccuracy $$peer --verifier $(VERIFIER_TABLE) --warp-bench $$sets
	$$($(SWIFT) build -c release --show-bin-path)/QuireAccuracy --verifier-report $(VERIFIER_TABLE) \
	  --reliability-csv $(ACCURACY_OUT)/reliability.csv
	@$(MAKE) --no-print-directory accuracy-orientation

## fit-verifier: the one step to rerun after photos are added to real-photos/truth.json: the
## verifier's candidate table re-dumped (every candidate of the real photos in
## Tools/accuracy/real-photos and of the generated set, seed ACCURACY_SEED, with their IoU
## against the truth), its weights fitted on it (PageVerifier.fit) and written as
## PageVerifier+Weights.generated.swift, then the leave-one-publisher-out report of the new table.
## A debug build, as VerifierFitTests re-dumps with one. Commit the table and the weights together.
VERIFIER_TABLE := Tools/accuracy/verifier/candidates.tsv
VERIFIER_WEIGHTS := Sources/QuirePageAnalysis/Verify/PageVerifier+Weights.generated.swift
fit-verifier: deps
	$(SWIFT) build --product QuireAccuracy
	@if [ ! -f $(ACCURACY_OUT)/generated/captures/truth.json ]; then \
	  bash Tests/python/setup_venv.sh .venv >/dev/null && \
	  .venv/bin/python Tools/accuracy/generate.py $(ACCURACY_OUT)/generated --seed $(ACCURACY_SEED); fi
	@mkdir -p $(dir $(VERIFIER_TABLE))
	$$($(SWIFT) build --show-bin-path)/QuireAccuracy --dump-candidates $(VERIFIER_TABLE) \
	  Tools/accuracy/real-photos $(ACCURACY_OUT)/generated/captures
	$$($(SWIFT) build --show-bin-path)/QuireAccuracy --fit-verifier $(VERIFIER_TABLE) $(VERIFIER_WEIGHTS)
	$$($(SWIFT) build --show-bin-path)/QuireAccuracy --verifier-report $(VERIFIER_TABLE) \
	  --reliability-csv $(ACCURACY_OUT)/reliability.csv

## accuracy-orientation: the real scans of ../shared/data/real turned by 0, 90, 180 and 270
## degrees, processed by `quire process`: how many come back upright (Tesseract's OSD).
accuracy-orientation: deps
	$(call link_tesseract,-c release)
	$(SWIFT) build -c release --product quire
	python3 Tools/accuracy/orientation.py $$($(SWIFT) build -c release --show-bin-path)/quire

## bench: throughput and memory of `quire process` against the floor and the peers, one table
## (Tools/bench/README.md), with the independent yardsticks of ../shared/bench on the captures,
## real photos and real scans, CPU ms per stage, and what got >10% slower than
## Tools/bench/results/latest.json. BENCH_ARGS passes options, e.g. BENCH_ARGS="--captures DIR",
## "--record" (write latest.json) or "--stand-in"; QUIRE_BIN points at another quire binary.
BENCH_ARGS ?=
bench: deps bench-venv
	$(call link_tesseract,-c release)
	$(SWIFT) build -c release --product quire
	$(SWIFT) build -c release --product quire-floor
	python3 Tools/bench/run_bench.py $(BENCH_ARGS)

## bench-quick: the same on 10 captures, 2 runs, without the 1000-page memory check.
bench-quick: deps bench-venv
	$(call link_tesseract,-c release)
	$(SWIFT) build -c release --product quire
	$(SWIFT) build -c release --product quire-floor
	python3 Tools/bench/run_bench.py --quick $(BENCH_ARGS)

## bench-venv: the Python peers (numpy, Pillow, OpenCV) in .venv, installed when missing.
bench-venv:
	@bash Tools/bench/setup_venv.sh .venv

## viewer: embed Viewer/ into Sources/QuireKit/Viewer/ViewerAssets.swift (run after editing Viewer/).
viewer:
	python3 Scripts/embed_viewer.py

## install: quire built with the Swift runtime linked in (runs where no Swift toolchain is
## installed; it still needs libvips and its libraries), Quire's libtesseract in PREFIX/lib/quire
## when `make tesseract-fast` can build it (found through quire's RUNPATH), its man page (argument-parser's
## generate-manual, run on that binary) and its shell completions, into PREFIX.
## INSTALL_CONFIG=debug builds it unoptimised (the install test does: same linking, same files);
## INSTALL_SWIFT_FLAGS adds options to its `swift build`s (the test: -debug-info-format none).
PREFIX ?= /usr/local
STATIC_BUILD := .build-static
INSTALL_CONFIG ?= release
INSTALL_SWIFT_FLAGS ?=
VERSION := $(shell sed -n 's/.*version: "\(.*\)".*/\1/p' Sources/quire/Quire.swift)
# No index store: nothing reads an install build's index (an editor reads .build's), and in a debug
# build indexing while compiling costs CPU (docs/benchmarks.md, "Test suite time").
STATIC_FLAGS = -c $(INSTALL_CONFIG) --static-swift-stdlib --disable-index-store --scratch-path $(STATIC_BUILD) \
  $(INSTALL_SWIFT_FLAGS)
install:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="libvips-dev pkg-config"
	$(SWIFT) build $(STATIC_FLAGS) --product quire
	$(SWIFT) build $(STATIC_FLAGS) --product generate-manual
	@bin=$$($(SWIFT) build $(STATIC_FLAGS) --show-bin-path); \
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d \
	  $(DESTDIR)$(PREFIX)/share/man/man1; \
	install -m 755 $$bin/quire $(DESTDIR)$(PREFIX)/bin/quire; \
	lib=$$([ "$(TESSERACT)" = system ] || bash Scripts/tesseract_fast.sh); \
	if [ -n "$$lib" ]; then install -D -m 644 $$lib/libtesseract.so.5 $(DESTDIR)$(PREFIX)/lib/quire/libtesseract.so.5 && \
	  install -D -m 644 $$lib/LICENSE $(DESTDIR)$(PREFIX)/share/doc/quire/tesseract/LICENSE || exit 1; \
	else rm -f $(DESTDIR)$(PREFIX)/lib/quire/libtesseract.so.5; fi; \
	rm -rf $(STATIC_BUILD)/man && mkdir -p $(STATIC_BUILD)/man && $$bin/generate-manual $$bin/quire -o $(STATIC_BUILD)/man >/dev/null && \
	  install -m 644 $(STATIC_BUILD)/man/quire.1 $(DESTDIR)$(PREFIX)/share/man/man1/quire.1 || exit 1; \
	$$bin/quire --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/quire; \
	$$bin/quire --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_quire; \
	$$bin/quire --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/quire.fish; \
	echo "installed quire $(VERSION) into $(DESTDIR)$(PREFIX)"

## dist: the same files as `make install`, as quire-VERSION-linux-ARCH.tar.gz.
dist:
	rm -rf $(STATIC_BUILD)/dist && $(MAKE) install PREFIX=/ DESTDIR=$(CURDIR)/$(STATIC_BUILD)/dist
	tar -C $(STATIC_BUILD)/dist -czf quire-$(VERSION)-linux-$$(uname -m).tar.gz .
	@echo "quire-$(VERSION)-linux-$$(uname -m).tar.gz"

clean:
	rm -rf .build $(STATIC_BUILD) $(FAST_BUILD) $(TEST_BUILD) $(OUT)

## lint: the code's format, as .swift-format and .clang-format say (swift-format ships with Swift;
## clang-format from Debian). `.ci/run` runs it before the tests; `make format` rewrites the files.
SWIFT_FORMAT_PATHS := Sources Tests Tools Package.swift
C_FORMAT_FILES = $(shell find Sources/CVipsShim Sources/CVips Sources/CTesseract Sources/CTesseractShim -name '*.[ch]' -o -name '*.cpp')
lint: deps
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)
	clang-format --dry-run --Werror $(C_FORMAT_FILES)

format: deps
	$(SWIFT) format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)
	clang-format -i $(C_FORMAT_FILES)
