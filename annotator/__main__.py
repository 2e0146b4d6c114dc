from annotator.cli.main import main

if __name__ == "__main__":  # not in a worker process that imports it
    raise SystemExit(main())
