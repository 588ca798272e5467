{
  "targets": [
    { "target_name": "slice_watchdog", "sources": ["slice-watchdog.cc"], "cflags_cc": ["-std=c++20"] }
  ]
}
