import HealthPipeCLI
HealthPipeMain.main()
