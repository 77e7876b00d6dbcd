from solvers.cli.main import main

raise SystemExit(main())
