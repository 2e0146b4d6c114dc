from annotator.cli.main import main

raise SystemExit(main())
